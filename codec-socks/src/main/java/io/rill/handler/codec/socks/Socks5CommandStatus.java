package io.rill.handler.codec.socks;

/**
 * The REP field of a SOCKS5 reply (RFC 1928 §6). Codes 0x09 to 0xFF are unassigned; they decode,
 * and a client treats them as a failure like any other non-zero code.
 *
 * @param code the byte on the wire, 0..255
 */
public record Socks5CommandStatus(int code) {

    /** Succeeded (0x00). */
    public static final Socks5CommandStatus SUCCESS = new Socks5CommandStatus(0x00);
    /** General SOCKS server failure (0x01). */
    public static final Socks5CommandStatus FAILURE = new Socks5CommandStatus(0x01);
    /** Connection not allowed by ruleset (0x02). */
    public static final Socks5CommandStatus FORBIDDEN = new Socks5CommandStatus(0x02);
    /** Network unreachable (0x03). */
    public static final Socks5CommandStatus NETWORK_UNREACHABLE = new Socks5CommandStatus(0x03);
    /** Host unreachable (0x04). */
    public static final Socks5CommandStatus HOST_UNREACHABLE = new Socks5CommandStatus(0x04);
    /** Connection refused (0x05). */
    public static final Socks5CommandStatus CONNECTION_REFUSED = new Socks5CommandStatus(0x05);
    /** TTL expired (0x06). */
    public static final Socks5CommandStatus TTL_EXPIRED = new Socks5CommandStatus(0x06);
    /** Command not supported (0x07). */
    public static final Socks5CommandStatus COMMAND_UNSUPPORTED = new Socks5CommandStatus(0x07);
    /** Address type not supported (0x08). */
    public static final Socks5CommandStatus ADDRESS_UNSUPPORTED = new Socks5CommandStatus(0x08);

    /**
     * Checks the code.
     *
     * @param code the byte on the wire, 0..255
     */
    public Socks5CommandStatus {
        if (code < 0 || code > 0xFF) {
            throw new IllegalArgumentException("code: " + code + " (expected: 0..255)");
        }
    }

    /** {@return true for {@link #SUCCESS}} */
    public boolean isSuccess() {
        return code == 0;
    }

    /** {@return the meaning RFC 1928 gives the code, in lower case, for error messages} */
    public String description() {
        return switch (code) {
            case 0x00 -> "succeeded";
            case 0x01 -> "general SOCKS server failure";
            case 0x02 -> "connection not allowed by ruleset";
            case 0x03 -> "network unreachable";
            case 0x04 -> "host unreachable";
            case 0x05 -> "connection refused";
            case 0x06 -> "TTL expired";
            case 0x07 -> "command not supported";
            case 0x08 -> "address type not supported";
            default -> "unassigned reply code";
        };
    }

    @Override
    public String toString() {
        return description() + String.format(" (reply 0x%02x)", code);
    }
}
