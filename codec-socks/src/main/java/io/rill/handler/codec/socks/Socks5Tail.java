package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/**
 * The shape SOCKS5 requests and replies share, {@code VER=5 | code | RSV=0 | ATYP | ADDR | PORT}, as
 * parsed by their decoders.
 */
record Socks5Tail(int code, Socks5AddressType addressType, String host, int port) {

    /** Parses and consumes one, or returns null, consuming nothing, if it has not all arrived. */
    static Socks5Tail parse(ByteBuf in, String what) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 1) {
            return null;
        }
        SocksVersions.check(in.getUnsignedByte(start), 5, what);
        if (readable < 3) {
            return null;
        }
        int reserved = in.getUnsignedByte(start + 2);
        if (reserved != 0) {
            throw new SocksProtocolException(what + ": reserved byte 0x" + Integer.toHexString(reserved)
                    + " (expected: 0)");
        }
        if (readable < 4) {
            return null;
        }
        Socks5AddressType type = Socks5AddressType.of(in.getUnsignedByte(start + 3), what);
        int length = Socks5Addresses.length(in, start + 4, type);
        if (length < 0 || readable < 4 + length) {
            return null;
        }
        String host = Socks5Addresses.readHost(in, start + 4, type, what);
        int port = in.getUnsignedShort(start + 4 + length - 2);
        in.skipBytes(4 + length);
        return new Socks5Tail(in.getUnsignedByte(start + 1), type, host, port);
    }
}
