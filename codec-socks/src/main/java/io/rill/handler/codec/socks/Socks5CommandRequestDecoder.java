package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/** Server side: decodes one {@link Socks5CommandRequest}. An unknown command decodes (the server answers it); an unknown address type is a {@link SocksUnsupportedAddressTypeException}. */
public final class Socks5CommandRequestDecoder extends SocksMessageDecoder {

    /** Creates the decoder. */
    public Socks5CommandRequestDecoder() {
    }

    @Override
    SocksMessage tryParse(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        Socks5Tail tail = Socks5Tail.parse(in, "SOCKS5 request");
        if (tail == null) {
            return null;
        }
        return new Socks5CommandRequest(new Socks5CommandType(tail.code()), tail.addressType(), tail.host(), tail.port());
    }
}
