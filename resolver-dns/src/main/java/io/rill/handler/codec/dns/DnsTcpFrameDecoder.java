package io.rill.handler.codec.dns;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * Splits a TCP stream into DNS messages (RFC 1035 §4.2.2: each prefixed by its two-octet length)
 * and decodes each into a {@link DnsMessage}. The length field bounds a frame at 65535 octets, so
 * the cumulation never holds more than one frame and a bit; a zero length, or a frame that does
 * not decode, fails with a {@link DnsDecoderException}. After the first failure the stream is
 * not trusted: everything that follows is dropped unread, however the bytes were split into reads.
 */
public final class DnsTcpFrameDecoder extends ByteToMessageDecoder {

    /** Set at the first malformed frame; from then on input is discarded. */
    private boolean failed;

    /** A decoder for one connection. */
    public DnsTcpFrameDecoder() {
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (!failed && in.readableBytes() >= 2) {
            int length = in.getUnsignedShort(in.readerIndex());
            if (length == 0) {
                throw fail(in, new DnsDecoderException("TCP frame of length 0"));
            }
            if (in.readableBytes() < 2 + length) {
                return;
            }
            in.skipBytes(2);
            ByteBuf frame = in.readSlice(length);
            try {
                out.add(DnsMessageDecoder.decode(frame));
            } catch (DnsDecoderException e) {
                throw fail(in, e);
            }
        }
        if (failed) {
            in.skipBytes(in.readableBytes());
        }
    }

    private DnsDecoderException fail(ByteBuf in, DnsDecoderException e) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return e;
    }
}
