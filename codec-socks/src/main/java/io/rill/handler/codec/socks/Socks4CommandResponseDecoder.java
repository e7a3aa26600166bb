package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/** Client side: decodes one {@link Socks4CommandResponse}, whose version byte must be 0. */
public final class Socks4CommandResponseDecoder extends SocksMessageDecoder {

    /** Creates the decoder. */
    public Socks4CommandResponseDecoder() {
    }

    @Override
    SocksMessage tryParse(ByteBuf in) {
        int start = in.readerIndex();
        if (in.readableBytes() < 1) {
            return null;
        }
        int version = in.getUnsignedByte(start);
        if (version != 0) {
            throw new SocksProtocolException("SOCKS4 reply: version " + version + " (expected: 0)");
        }
        if (in.readableBytes() < 2) {
            return null;
        }
        Socks4ReplyStatus status = Socks4ReplyStatus.of(in.getUnsignedByte(start + 1));
        if (in.readableBytes() < 8) {
            return null;
        }
        Socks4CommandResponse response = new Socks4CommandResponse(status, SocksWire.formatIpv4(in, start + 4),
                in.getUnsignedShort(start + 2));
        in.skipBytes(8);
        return response;
    }
}
