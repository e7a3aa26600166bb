package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/** Client side: decodes the server's {@link Socks5InitialResponse}, its choice of method. */
public final class Socks5InitialResponseDecoder extends SocksMessageDecoder {

    /** Creates the decoder. */
    public Socks5InitialResponseDecoder() {
    }

    @Override
    SocksMessage tryParse(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 1) {
            return null;
        }
        SocksVersions.check(in.getUnsignedByte(start), 5, "SOCKS5 method selection");
        if (readable < 2) {
            return null;
        }
        Socks5InitialResponse response = new Socks5InitialResponse(new Socks5AuthMethod(in.getUnsignedByte(start + 1)));
        in.skipBytes(2);
        return response;
    }
}
