package io.rill.handler.codec;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.TypeParameterMatcher;
import io.rill.util.concurrent.Promise;

/**
 * A {@link ByteToMessageDecoder} and a {@link MessageToByteEncoder} in one handler, for
 * protocols whose two directions are best written side by side. Inbound bytes go to
 * {@link #decode}; outbound messages of type {@code I} to {@link #encode}. Built by composition:
 * the two halves are private instances that call back into this class.
 */
public abstract class ByteToMessageCodec<I> implements ChannelHandler {

    private final ByteToMessageDecoder decoder = new ByteToMessageDecoder() {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            ByteToMessageCodec.this.decode(ctx, in, out);
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            ByteToMessageCodec.this.decodeLast(ctx, in, out);
        }
    };
    private final MessageToByteEncoder<I> encoder;
    private final Class<?> outboundType;

    /** Resolves {@code I} from the subclass's type argument; encodes into direct buffers. */
    protected ByteToMessageCodec() {
        this(true);
    }

    protected ByteToMessageCodec(boolean preferDirect) {
        this(null, preferDirect);
    }

    @SuppressWarnings("unchecked")
    protected ByteToMessageCodec(Class<? extends I> outboundType, boolean preferDirect) {
        if (getClass().isAnnotationPresent(ChannelHandler.Sharable.class)) {
            throw new IllegalStateException(getClass().getName() + " is a decoder: it must not be @Sharable");
        }
        Class<? extends I> type = outboundType != null ? outboundType
                : (Class<? extends I>) TypeParameterMatcher.find(getClass(), ByteToMessageCodec.class, "I");
        this.encoder = new MessageToByteEncoder<I>(type, preferDirect) {
            @Override
            public boolean acceptOutboundMessage(Object msg) throws Exception {
                return ByteToMessageCodec.this.acceptOutboundMessage(msg);
            }

            @Override
            protected void encode(ChannelHandlerContext ctx, I msg, ByteBuf out) throws Exception {
                ByteToMessageCodec.this.encode(ctx, msg, out);
            }
        };
        this.outboundType = type;
    }

    /** True if {@code msg} goes to {@link #encode}; by default, if it is an {@code I}. */
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return outboundType.isInstance(msg);
    }

    /** See {@link ByteToMessageDecoder#setSingleDecode}. */
    public void setSingleDecode(boolean singleDecode) {
        decoder.setSingleDecode(singleDecode);
    }

    /** See {@link ByteToMessageDecoder#setCumulator}. */
    public void setCumulator(Cumulator cumulator) {
        decoder.setCumulator(cumulator);
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
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        decoder.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        decoder.userEventTriggered(ctx, evt);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        decoder.handlerRemoved(ctx);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        encoder.write(ctx, msg, promise);
    }

    /** See {@link ByteToMessageDecoder#decode}. */
    protected abstract void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception;

    /** See {@link ByteToMessageDecoder#decodeLast}. */
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
    }

    /** See {@link MessageToByteEncoder#encode}. */
    protected abstract void encode(ChannelHandlerContext ctx, I msg, ByteBuf out) throws Exception;
}
