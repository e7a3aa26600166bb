package io.rill.handler.codec.smtp;

import java.util.List;

/**
 * An SMTP reply (RFC 5321 §4.2): its code and the text of each line, in order (one line for most
 * replies, several for EHLO's).
 *
 * @param code 200 to 599
 * @param lines the text after the code on each line, without the separator
 */
public record SmtpResponse(int code, List<String> lines) {

    /**
     * Checks the code.
     *
     * @param code 200 to 599
     * @param lines the text of each line
     * @throws IllegalArgumentException if the code is not a reply code
     */
    public SmtpResponse {
        if (code < 200 || code > 599) {
            throw new IllegalArgumentException("an SMTP reply code is 200 to 599: " + code);
        }
        lines = List.copyOf(lines);
    }

    /** {@return true for 2xx and 3xx: the command was accepted or the server waits for more} */
    public boolean isPositive() {
        return code < 400;
    }
}
