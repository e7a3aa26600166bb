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

    /**
     * Resolves {@code I} from the subclass's type argument.
     *
     * @param preferDirect true to encode into direct buffers, false for heap buffers
     */
    protected ByteToMessageCodec(boolean preferDirect) {
        this(null, preferDirect);
    }

    /**
     * Encodes messages of {@code outboundType}.
     *
     * @param outboundType the class of the messages to encode; null to resolve {@code I} from the subclass's
     *                     type argument
     * @param preferDirect true to encode into direct buffers, false for heap buffers
     * @throws IllegalStateException if the subclass is annotated {@link ChannelHandler.Sharable}
     */
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

    /**
     * True if {@code msg} goes to {@link #encode}; by default, if it is an {@code I}.
     *
     * @param msg an outbound message
     * @return true to encode it, false to pass it on untouched
     * @throws Exception if the type check fails
     */
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return outboundType.isInstance(msg);
    }

    /**
     * See {@link ByteToMessageDecoder#setSingleDecode}.
     *
     * @param singleDecode true to decode at most one message per read
     */
    public void setSingleDecode(boolean singleDecode) {
        decoder.setSingleDecode(singleDecode);
    }

    /**
     * See {@link ByteToMessageDecoder#setCumulator}.
     *
     * @param cumulator how the next reads are joined to the bytes already received
     */
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

    /**
     * See {@link ByteToMessageDecoder#decode}.
     *
     * @param ctx the context of this handler; event loop only
     * @param in  the bytes received and not yet consumed; owned by this codec, never released by {@code
     *           decode}
     * @param out where decoded messages go; the next handler owns each
     * @throws Exception any failure; it reaches {@code exceptionCaught} wrapped in a {@link DecoderException}
     */
    protected abstract void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception;

    /**
     * See {@link ByteToMessageDecoder#decodeLast}.
     *
     * @param ctx the context of this handler
     * @param in  the bytes left over when the input ended, possibly none; owned by this codec
     * @param out where decoded messages go
     * @throws Exception any failure, passed on like one from {@link #decode}
     */
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
    }

    /**
     * See {@link MessageToByteEncoder#encode}.
     *
     * @param ctx the context of this handler; event loop only
     * @param msg the message to encode; released by this codec after {@code encode} returns
     * @param out the buffer to write the encoding into; owned by this codec until it is written
     * @throws Exception any failure; the write fails with it wrapped in an {@link EncoderException}
     */
    protected abstract void encode(ChannelHandlerContext ctx, I msg, ByteBuf out) throws Exception;
}
