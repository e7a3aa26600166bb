package io.rill.handler.codec.smtp;

import java.util.List;

/**
 * One SMTP command line: the verb and its parameters, written as {@code VERB p1 p2\r\n}.
 *
 * @param command the verb
 * @param parameters each written after a space; none may hold CR, LF or NUL
 */
public record SmtpRequest(SmtpCommand command, List<String> parameters) {

    /**
     * Checks the parameters.
     *
     * @param command the verb
     * @param parameters its parameters
     * @throws IllegalArgumentException if a parameter holds CR, LF or NUL: it would end the
     *         command line early and let the rest of the parameter run as a command of its own
     *         (SMTP command injection)
     */
    public SmtpRequest {
        if (command == null) {
            throw new NullPointerException("command");
        }
        parameters = List.copyOf(parameters);
        for (String p : parameters) {
            for (int i = 0; i < p.length(); i++) {
                char c = p.charAt(i);
                if (c == '\r' || c == '\n' || c == 0) {
                    throw new IllegalArgumentException("an SMTP parameter must not hold CR, LF or NUL (it would"
                            + " inject a command): " + p.replace("\r", "\\r").replace("\n", "\\n").replace("\0", "\\0"));
                }
                if (c > 0x7F) {
                    throw new IllegalArgumentException("an SMTP parameter is ASCII (use the SMTPUTF8 extension's"
                            + " encoding for others): " + p);
                }
            }
        }
    }

    /**
     * A request with the given parameters.
     *
     * @param command the verb
     * @param parameters its parameters
     */
    public SmtpRequest(SmtpCommand command, String... parameters) {
        this(command, List.of(parameters));
    }

    /**
     * EHLO, the extended hello.
     *
     * @param hostname the client's domain or address literal
     * @return the request
     */
    public static SmtpRequest ehlo(String hostname) {
        return new SmtpRequest(SmtpCommand.EHLO, hostname);
    }

    /**
     * HELO, the hello without extensions.
     *
     * @param hostname the client's domain
     * @return the request
     */
    public static SmtpRequest helo(String hostname) {
        return new SmtpRequest(SmtpCommand.HELO, hostname);
    }

    /**
     * {@code MAIL FROM:<sender>}.
     *
     * @param sender the reverse path, empty for a bounce
     * @return the request
     */
    public static SmtpRequest mail(String sender) {
        return new SmtpRequest(SmtpCommand.MAIL, "FROM:<" + sender + ">");
    }

    /**
     * {@code RCPT TO:<recipient>}.
     *
     * @param recipient the forward path
     * @return the request
     */
    public static SmtpRequest rcpt(String recipient) {
        return new SmtpRequest(SmtpCommand.RCPT, "TO:<" + recipient + ">");
    }

    /** {@return DATA; the message follows as SmtpContent once the server answered 354} */
    public static SmtpRequest data() {
        return new SmtpRequest(SmtpCommand.DATA);
    }

    /**
     * AUTH with a mechanism and, optionally, its initial response.
     *
     * @param mechanismAndResponse e.g. {@code "PLAIN", "AGxpY2UAc2VjcmV0"}
     * @return the request
     */
    public static SmtpRequest auth(String... mechanismAndResponse) {
        return new SmtpRequest(SmtpCommand.AUTH, mechanismAndResponse);
    }

    /** {@return NOOP} */
    public static SmtpRequest noop() {
        return new SmtpRequest(SmtpCommand.NOOP);
    }

    /** {@return RSET} */
    public static SmtpRequest rset() {
        return new SmtpRequest(SmtpCommand.RSET);
    }

    /** {@return QUIT} */
    public static SmtpRequest quit() {
        return new SmtpRequest(SmtpCommand.QUIT);
    }
}
