package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/** Client side: decodes one {@link Socks5CommandResponse}. */
public final class Socks5CommandResponseDecoder extends SocksMessageDecoder {

    /** Creates the decoder. */
    public Socks5CommandResponseDecoder() {
    }

    @Override
    SocksMessage tryParse(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        Socks5Tail tail = Socks5Tail.parse(in, "SOCKS5 reply");
        if (tail == null) {
            return null;
        }
        return new Socks5CommandResponse(new Socks5CommandStatus(tail.code()), tail.addressType(), tail.host(), tail.port());
    }
}
