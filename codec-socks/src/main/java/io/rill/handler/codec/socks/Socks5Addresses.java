package io.rill.handler.codec.socks;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;

/** The ATYP, address and port tail shared by SOCKS5 requests and replies. */
final class Socks5Addresses {

    private Socks5Addresses() {
    }

    /** Checks that {@code host} can travel as {@code type}, and returns it. */
    static String check(Socks5AddressType type, String host) {
        if (type == null) {
            throw new NullPointerException("addressType");
        }
        SocksWire.checkHostname(host);
        boolean fits = switch (type) {
            case IPV4 -> SocksWire.ipv4(host) != null;
            case IPV6 -> SocksWire.ipv6(host) != null;
            case DOMAIN -> true;
        };
        if (!fits) {
            throw new IllegalArgumentException("host " + host + " is not an " + type + " literal");
        }
        return host;
    }

    /**
     * The number of bytes of the address and port starting at {@code index} (just after ATYP),
     * or -1 if the length byte of a name has not arrived yet.
     */
    static int length(ByteBuf in, int index, Socks5AddressType type) {
        return switch (type) {
            case IPV4 -> 4 + 2;
            case IPV6 -> 16 + 2;
            case DOMAIN -> in.writerIndex() > index ? 1 + in.getUnsignedByte(index) + 2 : -1;
        };
    }

    static String readHost(ByteBuf in, int index, Socks5AddressType type, String what) {
        return switch (type) {
            case IPV4 -> SocksWire.formatIpv4(in, index);
            case IPV6 -> SocksWire.formatIpv6(in, index);
            case DOMAIN -> SocksWire.readHostname(in, index + 1, in.getUnsignedByte(index), what);
        };
    }

    static void write(ByteBuf out, Socks5AddressType type, String host, int port) {
        out.writeByte(type.code());
        switch (type) {
            case IPV4 -> out.writeBytes(SocksWire.ipv4(host));
            case IPV6 -> out.writeBytes(SocksWire.ipv6(host));
            case DOMAIN -> out.writeByte(host.length()).writeBytes(host.getBytes(StandardCharsets.US_ASCII));
        }
        out.writeShort(port);
    }
}
