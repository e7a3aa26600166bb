package io.rill.handler.codec;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.TypeParameterMatcher;
import io.rill.util.concurrent.Promise;

/**
 * Writes each outbound message of type {@code I} into a fresh buffer; other messages pass on
 * untouched. The buffer is direct by default, because a socket write from a heap buffer costs
 * the JDK an extra copy. The message is released after {@link #encode} returns.
 *
 * <pre>{@code
 * class IntegerEncoder extends MessageToByteEncoder<Integer> {
 *     protected void encode(ChannelHandlerContext ctx, Integer msg, ByteBuf out) {
 *         out.writeInt(msg);
 *     }
 * }
 * }</pre>
 */
public abstract class MessageToByteEncoder<I> implements ChannelHandler {

    private final Class<?> outboundType;
    private final boolean preferDirect;

    /** Resolves {@code I} from the subclass's type argument; encodes into direct buffers. */
    protected MessageToByteEncoder() {
        this(true);
    }

    /**
     * Resolves {@code I} from the subclass's type argument.
     *
     * @param preferDirect true to encode into direct buffers, false for heap buffers
     */
    protected MessageToByteEncoder(boolean preferDirect) {
        this.outboundType = TypeParameterMatcher.find(getClass(), MessageToByteEncoder.class, "I");
        this.preferDirect = preferDirect;
    }

    /**
     * Encodes messages of {@code outboundType}.
     *
     * @param outboundType the class of the messages to encode; not null
     * @param preferDirect true to encode into direct buffers, false for heap buffers
     * @throws NullPointerException if {@code outboundType} is null
     */
    protected MessageToByteEncoder(Class<? extends I> outboundType, boolean preferDirect) {
        if (outboundType == null) {
            throw new NullPointerException("outboundType");
        }
        this.outboundType = outboundType;
        this.preferDirect = preferDirect;
    }

    /**
     * True if {@code msg} goes to {@link #encode}; by default, if it is an {@code I}.
     *
     * @param msg an outbound message
     * @return true to encode it, false to pass it on untouched
     * @throws Exception if the check fails; the write then fails
     */
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return outboundType.isInstance(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (!acceptOutboundMessage(msg)) {
            ctx.write(msg, promise);
            return;
        }
        ByteBuf buf = null;
        try {
            @SuppressWarnings("unchecked")
            I cast = (I) msg;
            try {
                buf = allocateBuffer(ctx, cast, preferDirect);
                encode(ctx, cast, buf);
            } finally {
                ReferenceCountUtil.release(cast);
            }
        } catch (Throwable t) {
            if (buf != null) {
                buf.release();
            }
            throw t instanceof EncoderException e ? e : new EncoderException(t);
        }
        if (buf.isReadable()) {
            ctx.write(buf, promise);
        } else {
            // Still write something, so the promise completes in order with the writes around it.
            buf.release();
            ctx.write(Unpooled.EMPTY_BUFFER, promise);
        }
    }

    /**
     * The buffer {@link #encode} writes into. Override to size it from the message (saves
     * growing) or to choose another kind.
     *
     * @param ctx          the context of this handler
     * @param msg          the message about to be encoded
     * @param preferDirect whether a direct buffer was asked for
     * @return a new buffer, owned by this encoder, which writes it on or releases it
     * @throws Exception if no buffer can be had; the write then fails
     */
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, I msg, boolean preferDirect) throws Exception {
        return preferDirect ? ctx.alloc().ioBuffer() : ctx.alloc().heapBuffer();
    }

    /**
     * Writes {@code msg} into {@code out}; {@code msg} is released after this returns.
     *
     * @param ctx the context of this handler; event loop only, like every call into an encoder
     * @param msg the message to encode; owned and released by this class, so retain what must outlive the
     *            call
     * @param out the buffer to write into; owned by this class, which writes it on (or releases it if empty)
     * @throws Exception any failure; the write fails with it, wrapped in an {@link EncoderException}
     */
    protected abstract void encode(ChannelHandlerContext ctx, I msg, ByteBuf out) throws Exception;

    /**
     * Whether {@link #allocateBuffer} is asked for a direct buffer.
     *
     * @return true if encoding goes into direct buffers
     */
    protected boolean isPreferDirect() {
        return preferDirect;
    }
}
