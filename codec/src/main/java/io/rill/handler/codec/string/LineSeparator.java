package io.rill.handler.codec.string;

import java.nio.charset.StandardCharsets;

/** The line ending {@link LineEncoder} appends. */
public enum LineSeparator {

    /** {@code \n}, as on Unix and in most line protocols' lenient readers. */
    UNIX("\n"),
    /** {@code \r\n}, as required by SMTP, HTTP/1.1 headers and telnet. */
    WINDOWS("\r\n"),
    /** The platform's own ({@link System#lineSeparator()}). */
    DEFAULT(System.lineSeparator());

    private final String value;

    LineSeparator(String value) {
        this.value = value;
    }

    /**
     * The separator's characters.
     *
     * @return the characters that end a line, e.g. {@code "\r\n"}
     */
    public String value() {
        return value;
    }

    /** The separator's bytes; every separator is ASCII, so this holds in any ASCII-compatible charset. */
    byte[] bytes() {
        return value.getBytes(StandardCharsets.US_ASCII);
    }
}
