package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/** Client side: decodes the server's {@link Socks5PasswordAuthResponse}. */
public final class Socks5PasswordAuthResponseDecoder extends SocksMessageDecoder {

    /** Creates the decoder. */
    public Socks5PasswordAuthResponseDecoder() {
    }

    @Override
    SocksMessage tryParse(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 1) {
            return null;
        }
        SocksVersions.check(in.getUnsignedByte(start), 1, "SOCKS5 username/password reply");
        if (readable < 2) {
            return null;
        }
        Socks5PasswordAuthResponse response = new Socks5PasswordAuthResponse(in.getUnsignedByte(start + 1));
        in.skipBytes(2);
        return response;
    }
}
