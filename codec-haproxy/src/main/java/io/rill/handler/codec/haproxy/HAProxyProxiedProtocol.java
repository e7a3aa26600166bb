package io.rill.handler.codec.haproxy;

/**
 * The family and transport of the relayed connection: version 2's family byte, or version 1's
 * {@code TCP4}, {@code TCP6} and {@code UNKNOWN}.
 */
public enum HAProxyProxiedProtocol {
    /** Not known, or not given (LOCAL): no addresses. */
    UNKNOWN(0x00, 0),
    /** TCP over IPv4. */
    TCP4(0x11, 12),
    /** UDP over IPv4. */
    UDP4(0x12, 12),
    /** TCP over IPv6. */
    TCP6(0x21, 36),
    /** UDP over IPv6. */
    UDP6(0x22, 36),
    /** A Unix stream socket. */
    UNIX_STREAM(0x31, 216),
    /** A Unix datagram socket. */
    UNIX_DGRAM(0x32, 216);

    private final int code;
    private final int addressLength;

    HAProxyProxiedProtocol(int code, int addressLength) {
        this.code = code;
        this.addressLength = addressLength;
    }

    /** {@return the version 2 family and transport byte} */
    public int code() {
        return code;
    }

    /** {@return the bytes of the address block in a version 2 header} */
    public int addressLength() {
        return addressLength;
    }

    /** {@return true for TCP4, UDP4} */
    public boolean isIpv4() {
        return this == TCP4 || this == UDP4;
    }

    /** {@return true for TCP6, UDP6} */
    public boolean isIpv6() {
        return this == TCP6 || this == UDP6;
    }

    /** {@return true for the Unix socket families} */
    public boolean isUnix() {
        return this == UNIX_STREAM || this == UNIX_DGRAM;
    }

    static HAProxyProxiedProtocol of(int code) {
        for (HAProxyProxiedProtocol p : values()) {
            if (p.code == code) {
                return p;
            }
        }
        throw new HAProxyProtocolException(String.format("PROXY v2: unknown family/transport byte 0x%02x", code));
    }
}
