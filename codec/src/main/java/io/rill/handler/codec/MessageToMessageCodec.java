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

    /**
     * Converts messages of the given types, for subclasses whose type arguments cannot be resolved.
     *
     * @param inboundType  the class of the inbound messages to decode; not null
     * @param outboundType the class of the outbound messages to encode; not null
     * @throws NullPointerException if a type is null
     */
    protected MessageToMessageCodec(Class<? extends IN> inboundType, Class<? extends OUT> outboundType) {
        if (inboundType == null || outboundType == null) {
            throw new NullPointerException(inboundType == null ? "inboundType" : "outboundType");
        }
        this.inboundType = inboundType;
        this.outboundType = outboundType;
    }

    /**
     * True if {@code msg} goes to {@link #decode}; by default, if it is an {@code IN}.
     *
     * @param msg an inbound message
     * @return true to decode it, false to pass it on untouched
     * @throws Exception if the check fails
     */
    public boolean acceptInboundMessage(Object msg) throws Exception {
        return inboundType.isInstance(msg);
    }

    /**
     * True if {@code msg} goes to {@link #encode}; by default, if it is an {@code OUT}.
     *
     * @param msg an outbound message
     * @return true to encode it, false to pass it on untouched
     * @throws Exception if the check fails; the write then fails
     */
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

    /**
     * See {@link MessageToMessageDecoder#decode}; {@code msg} is released after this returns.
     *
     * @param ctx the context of this handler; event loop only
     * @param msg the message to decode; released by this codec, so retain what is passed on
     * @param out where decoded messages go; the next handler owns each
     * @throws Exception any failure; it reaches {@code exceptionCaught} wrapped in a {@link DecoderException}
     */
    protected abstract void decode(ChannelHandlerContext ctx, IN msg, List<Object> out) throws Exception;

    /**
     * See {@link MessageToMessageEncoder#encode}; {@code msg} is released after this returns.
     *
     * @param ctx the context of this handler; event loop only
     * @param msg the message to encode; released by this codec, so retain what is passed on
     * @param out where encoded messages go; they are written on in order
     * @throws Exception any failure; the write fails with it, wrapped in an {@link EncoderException}
     */
    protected abstract void encode(ChannelHandlerContext ctx, OUT msg, List<Object> out) throws Exception;
}
