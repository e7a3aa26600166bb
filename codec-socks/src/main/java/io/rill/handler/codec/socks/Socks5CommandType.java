package io.rill.handler.codec.socks;

/**
 * The command of a SOCKS5 request (RFC 1928 §4). A record over the byte: a server decodes a command
 * it does not support and answers it with {@link Socks5CommandStatus#COMMAND_UNSUPPORTED} instead
 * of failing the decode.
 *
 * @param code the byte on the wire, 0..255
 */
public record Socks5CommandType(int code) {

    /** Open a TCP connection (0x01). */
    public static final Socks5CommandType CONNECT = new Socks5CommandType(0x01);
    /** Listen for one connection (0x02). */
    public static final Socks5CommandType BIND = new Socks5CommandType(0x02);
    /** Relay UDP datagrams (0x03). */
    public static final Socks5CommandType UDP_ASSOCIATE = new Socks5CommandType(0x03);

    /**
     * Checks the code.
     *
     * @param code the byte on the wire, 0..255
     */
    public Socks5CommandType {
        if (code < 0 || code > 0xFF) {
            throw new IllegalArgumentException("code: " + code + " (expected: 0..255)");
        }
    }

    @Override
    public String toString() {
        return switch (code) {
            case 0x01 -> "CONNECT";
            case 0x02 -> "BIND";
            case 0x03 -> "UDP_ASSOCIATE";
            default -> "COMMAND(0x" + Integer.toHexString(code) + ")";
        };
    }
}
