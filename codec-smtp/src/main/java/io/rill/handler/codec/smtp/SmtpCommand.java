package io.rill.handler.codec.smtp;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An SMTP command verb (RFC 5321 §4.1): the common ones as constants, others by {@link #valueOf}.
 *
 * @param name the verb, upper case, 1 to 16 ASCII letters
 */
public record SmtpCommand(String name) {

    /** Extended hello (RFC 5321 §4.1.1.1): the server answers with its extensions. */
    public static final SmtpCommand EHLO = new SmtpCommand("EHLO");
    /** Hello without extensions. */
    public static final SmtpCommand HELO = new SmtpCommand("HELO");
    /** Authentication (RFC 4954). */
    public static final SmtpCommand AUTH = new SmtpCommand("AUTH");
    /** Switch to TLS (RFC 3207). */
    public static final SmtpCommand STARTTLS = new SmtpCommand("STARTTLS");
    /** Starts a message: {@code FROM:<reverse-path>}. */
    public static final SmtpCommand MAIL = new SmtpCommand("MAIL");
    /** Adds a recipient: {@code TO:<forward-path>}. */
    public static final SmtpCommand RCPT = new SmtpCommand("RCPT");
    /** The message follows once the server answers 354. */
    public static final SmtpCommand DATA = new SmtpCommand("DATA");
    /** Does nothing; keeps the connection alive. */
    public static final SmtpCommand NOOP = new SmtpCommand("NOOP");
    /** Aborts the message being built. */
    public static final SmtpCommand RSET = new SmtpCommand("RSET");
    /** Asks whether a mailbox exists. */
    public static final SmtpCommand VRFY = new SmtpCommand("VRFY");
    /** Asks for a mailing list's members. */
    public static final SmtpCommand EXPN = new SmtpCommand("EXPN");
    /** Asks for help. */
    public static final SmtpCommand HELP = new SmtpCommand("HELP");
    /** Ends the session. */
    public static final SmtpCommand QUIT = new SmtpCommand("QUIT");

    /**
     * Checks the verb.
     *
     * @param name the verb; 1 to 16 ASCII letters, kept upper case
     * @throws IllegalArgumentException if it is not such a verb
     */
    public SmtpCommand {
        if (name == null || name.isEmpty() || name.length() > 16) {
            throw new IllegalArgumentException("an SMTP verb is 1 to 16 letters: " + name);
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'A' && c <= 'Z')) {
                throw new IllegalArgumentException("an SMTP verb is upper-case ASCII letters: " + name);
            }
        }
    }

    /**
     * The command named {@code name}, in any case.
     *
     * @param name e.g. "ehlo"
     * @return the command
     */
    public static SmtpCommand valueOf(String name) {
        return new SmtpCommand(name == null ? null : name.toUpperCase(Locale.ROOT));
    }

    byte[] bytes() {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return name;
    }
}
