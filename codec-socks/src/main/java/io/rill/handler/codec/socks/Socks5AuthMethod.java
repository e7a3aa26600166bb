package io.rill.handler.codec.socks;

/**
 * A SOCKS5 authentication method (RFC 1928 §3). A record over the byte rather than an enum: a client
 * may offer methods this codec does not know (IANA-assigned or private), and a server must be able
 * to read and ignore them.
 *
 * @param code the byte on the wire, 0..255
 */
public record Socks5AuthMethod(int code) {

    /** No authentication required (0x00). */
    public static final Socks5AuthMethod NO_AUTH = new Socks5AuthMethod(0x00);
    /** GSSAPI (0x01). */
    public static final Socks5AuthMethod GSSAPI = new Socks5AuthMethod(0x01);
    /** Username/password, RFC 1929 (0x02). */
    public static final Socks5AuthMethod PASSWORD = new Socks5AuthMethod(0x02);
    /** The server's answer when none of the offered methods is acceptable (0xFF). */
    public static final Socks5AuthMethod NO_ACCEPTABLE_METHODS = new Socks5AuthMethod(0xFF);

    /**
     * Checks the code.
     *
     * @param code the byte on the wire, 0..255
     */
    public Socks5AuthMethod {
        if (code < 0 || code > 0xFF) {
            throw new IllegalArgumentException("code: " + code + " (expected: 0..255)");
        }
    }

    @Override
    public String toString() {
        return switch (code) {
            case 0x00 -> "NO_AUTH";
            case 0x01 -> "GSSAPI";
            case 0x02 -> "PASSWORD";
            case 0xFF -> "NO_ACCEPTABLE_METHODS";
            default -> "METHOD(0x" + Integer.toHexString(code) + ")";
        };
    }
}
