package io.rill.handler.codec.dns;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToByteEncoder;

/** Writes each {@link DnsMessage} with its two-octet length in front (RFC 1035 §4.2.2). */
@ChannelHandler.Sharable
public final class DnsTcpEncoder extends MessageToByteEncoder<DnsMessage> {

    /** An encoder; it holds no state, so one serves every channel. */
    public DnsTcpEncoder() {
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, DnsMessage msg, ByteBuf out) {
        int lengthAt = out.writerIndex();
        out.writeShort(0);
        DnsMessageEncoder.encode(msg, out);
        int length = out.writerIndex() - lengthAt - 2;
        if (length > 0xFFFF) {
            throw new IllegalArgumentException("DNS message of " + length + " octets over TCP's 65535");
        }
        out.setShort(lengthAt, length);
    }
}
