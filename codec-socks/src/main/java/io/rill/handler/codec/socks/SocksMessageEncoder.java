package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToByteEncoder;

/**
 * Writes any {@link SocksMessage}, for clients and servers alike. It keeps no state, so one
 * instance ({@link #INSTANCE}) serves every channel.
 */
@ChannelHandler.Sharable
public final class SocksMessageEncoder extends MessageToByteEncoder<SocksMessage> {

    /** The shared instance. */
    public static final SocksMessageEncoder INSTANCE = new SocksMessageEncoder();

    private SocksMessageEncoder() {
        super(SocksMessage.class, false);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, SocksMessage msg, ByteBuf out) {
        msg.writeTo(out);
    }
}
