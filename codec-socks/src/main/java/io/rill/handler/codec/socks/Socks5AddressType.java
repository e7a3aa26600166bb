package io.rill.handler.codec.socks;

/** The ATYP field of a SOCKS5 request or reply (RFC 1928 §5). */
public enum Socks5AddressType {
    /** Four bytes of IPv4 address. */
    IPV4(0x01),
    /** A length byte and that many bytes of host name, sent unresolved. */
    DOMAIN(0x03),
    /** Sixteen bytes of IPv6 address. */
    IPV6(0x04);

    private final int code;

    Socks5AddressType(int code) {
        this.code = code;
    }

    /** {@return the byte on the wire} */
    public int code() {
        return code;
    }

    /**
     * The type a host string travels as: an IPv4 or IPv6 literal as such, anything else as a name.
     *
     * @param host an address literal or a host name
     * @return the address type to send it with
     */
    public static Socks5AddressType of(String host) {
        if (SocksWire.ipv4(host) != null) {
            return IPV4;
        }
        return SocksWire.ipv6(host) != null ? IPV6 : DOMAIN;
    }

    static Socks5AddressType of(int code, String what) {
        for (Socks5AddressType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new SocksUnsupportedAddressTypeException(what + ": unknown address type 0x" + Integer.toHexString(code));
    }
}
