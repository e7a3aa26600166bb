package io.rill.handler.codec.socks;

import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;

/** Server side: decodes the {@link Socks5InitialRequest} a client opens with. */
public final class Socks5InitialRequestDecoder extends SocksMessageDecoder {

    /** Creates the decoder. */
    public Socks5InitialRequestDecoder() {
    }

    @Override
    SocksMessage tryParse(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 1) {
            return null;
        }
        SocksVersions.check(in.getUnsignedByte(start), 5, "SOCKS5 greeting");
        if (readable < 2) {
            return null;
        }
        int count = in.getUnsignedByte(start + 1);
        if (count == 0) {
            throw new SocksProtocolException("SOCKS5 greeting: no authentication method offered (NMETHODS 0)");
        }
        if (readable < 2 + count) {
            return null;
        }
        List<Socks5AuthMethod> methods = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            methods.add(new Socks5AuthMethod(in.getUnsignedByte(start + 2 + i)));
        }
        in.skipBytes(2 + count);
        return new Socks5InitialRequest(methods);
    }
}
