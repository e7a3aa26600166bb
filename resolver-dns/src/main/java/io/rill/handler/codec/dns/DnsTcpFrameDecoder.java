package io.rill.handler.codec.dns;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * Splits a TCP stream into DNS messages (RFC 1035 §4.2.2: each prefixed by its two-octet length)
 * and decodes each into a {@link DnsMessage}. The length field bounds a frame at 65535 octets, so
 * the cumulation never holds more than one frame and a bit; a zero length, or a frame that does
 * not decode, fails with a {@link DnsDecoderException}.
 */
public final class DnsTcpFrameDecoder extends ByteToMessageDecoder {

    /** A decoder for one connection. */
    public DnsTcpFrameDecoder() {
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= 2) {
            int length = in.getUnsignedShort(in.readerIndex());
            if (length == 0) {
                in.skipBytes(in.readableBytes());
                throw new DnsDecoderException("TCP frame of length 0");
            }
            if (in.readableBytes() < 2 + length) {
                return;
            }
            in.skipBytes(2);
            ByteBuf frame = in.readSlice(length);
            out.add(DnsMessageDecoder.decode(frame));
        }
    }
}
