package io.rill.handler.codec;

import java.util.List;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.TypeParameterMatcher;
import io.rill.util.concurrent.Promise;

/**
 * A {@link MessageToMessageDecoder} for inbound {@code IN} and a {@link MessageToMessageEncoder}
 * for outbound {@code OUT} in one handler, e.g. to convert between a protocol's message objects
 * and an application's. Built by composition: the two halves call back into this class.
 */
public abstract class MessageToMessageCodec<IN, OUT> implements ChannelHandler {

    private final Class<?> inboundType;
    private final Class<?> outboundType;

    private final MessageToMessageDecoder<Object> decoder = new MessageToMessageDecoder<>(Object.class) {
        @Override
        public boolean acceptInboundMessage(Object msg) throws Exception {
            return MessageToMessageCodec.this.acceptInboundMessage(msg);
        }

        @Override
        @SuppressWarnings("unchecked")
        protected void decode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
            MessageToMessageCodec.this.decode(ctx, (IN) msg, out);
        }
    };

    private final MessageToMessageEncoder<Object> encoder = new MessageToMessageEncoder<>(Object.class) {
        @Override
        public boolean acceptOutboundMessage(Object msg) throws Exception {
            return MessageToMessageCodec.this.acceptOutboundMessage(msg);
        }

        @Override
        @SuppressWarnings("unchecked")
        protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
            MessageToMessageCodec.this.encode(ctx, (OUT) msg, out);
        }
    };

    /** Resolves {@code IN} and {@code OUT} from the subclass's type arguments. */
    protected MessageToMessageCodec() {
        this.inboundType = TypeParameterMatcher.find(getClass(), MessageToMessageCodec.class, "IN");
        this.outboundType = TypeParameterMatcher.find(getClass(), MessageToMessageCodec.class, "OUT");
    }

    protected MessageToMessageCodec(Class<? extends IN> inboundType, Class<? extends OUT> outboundType) {
        if (inboundType == null || outboundType == null) {
            throw new NullPointerException(inboundType == null ? "inboundType" : "outboundType");
        }
        this.inboundType = inboundType;
        this.outboundType = outboundType;
    }

    /** True if {@code msg} goes to {@link #decode}; by default, if it is an {@code IN}. */
    public boolean acceptInboundMessage(Object msg) throws Exception {
        return inboundType.isInstance(msg);
    }

    /** True if {@code msg} goes to {@link #encode}; by default, if it is an {@code OUT}. */
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return outboundType.isInstance(msg);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        decoder.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        decoder.channelReadComplete(ctx);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        encoder.write(ctx, msg, promise);
    }

    /** See {@link MessageToMessageDecoder#decode}; {@code msg} is released after this returns. */
    protected abstract void decode(ChannelHandlerContext ctx, IN msg, List<Object> out) throws Exception;

    /** See {@link MessageToMessageEncoder#encode}; {@code msg} is released after this returns. */
    protected abstract void encode(ChannelHandlerContext ctx, OUT msg, List<Object> out) throws Exception;
}
