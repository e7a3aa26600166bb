package io.rill.handler.codec;

import java.util.List;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.TypeParameterMatcher;

/**
 * Turns each inbound message of type {@code I} into zero or more messages; other messages pass
 * on untouched. The input is released after {@link #decode} returns, so a decoder that passes
 * it (or a view of it) on must retain it.
 *
 * <pre>{@code
 * class IntegerToString extends MessageToMessageDecoder<Integer> {
 *     protected void decode(ChannelHandlerContext ctx, Integer msg, List<Object> out) {
 *         out.add(msg.toString());
 *     }
 * }
 * }</pre>
 *
 * Sharable if the subclass keeps no per-channel state and says so with {@link ChannelHandler.Sharable}.
 */
public abstract class MessageToMessageDecoder<I> implements ChannelHandler {

    private final Class<?> inboundType;
    /** Something went downstream since the last channelReadComplete. */
    private boolean produced;

    /** Resolves {@code I} from the subclass's type argument. */
    protected MessageToMessageDecoder() {
        this.inboundType = TypeParameterMatcher.find(getClass(), MessageToMessageDecoder.class, "I");
    }

    /**
     * Decodes messages of {@code inboundType}, for subclasses whose type argument cannot be resolved.
     *
     * @param inboundType the class of the messages to decode; not null
     * @throws NullPointerException if {@code inboundType} is null
     */
    protected MessageToMessageDecoder(Class<? extends I> inboundType) {
        if (inboundType == null) {
            throw new NullPointerException("inboundType");
        }
        this.inboundType = inboundType;
    }

    /**
     * True if {@code msg} goes to {@link #decode}; by default, if it is an {@code I}.
     *
     * @param msg an inbound message
     * @return true to decode it, false to pass it on untouched
     * @throws Exception if the check fails
     */
    public boolean acceptInboundMessage(Object msg) throws Exception {
        return inboundType.isInstance(msg);
    }

    /**
     * A message of type {@code I} is lent to {@link #decode} and released when it returns, however
     * it returns; what decode produced goes downstream in order even when decode then failed, as
     * nobody else holds it. A failure arrives downstream as a {@link DecoderException} after those
     * messages. Any other message goes on as it is.
     */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!acceptInboundMessage(msg)) {
            produced = true;
            ctx.fireChannelRead(msg);
            return;
        }
        CodecOutputList out = CodecOutputList.newInstance();
        Throwable failure;
        try {
            failure = decodeThenRelease(ctx, msg, out);
            produced |= !out.isEmpty();
            for (int i = 0, n = out.size(); i < n; i++) {
                ctx.fireChannelRead(out.getUnchecked(i));
            }
        } finally {
            out.recycle();
        }
        if (failure != null) {
            throw asThrown(failure);
        }
    }

    /** Errors and DecoderExceptions leave as they are; anything else is wrapped in a DecoderException. */
    private static RuntimeException asThrown(Throwable failure) {
        if (failure instanceof Error e) {
            throw e;
        }
        return failure instanceof DecoderException d ? d : new DecoderException(failure);
    }

    /** Runs decode, then releases {@code msg} whatever decode did; returns what went wrong, or null. */
    @SuppressWarnings("unchecked")
    private Throwable decodeThenRelease(ChannelHandlerContext ctx, Object msg, List<Object> out) {
        Throwable failure = null;
        try {
            decode(ctx, (I) msg, out);
        } catch (Throwable t) {
            failure = t; // an Error too: the input and the output must not leak on the way out
        }
        try {
            ReferenceCountUtil.release(msg);
        } catch (RuntimeException e) {
            // Released once too often: decode gave away a message it had only borrowed.
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        return failure;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (!produced && !ctx.channel().config().isAutoRead()) {
            ctx.read(); // everything read was swallowed and nobody downstream will ask for more
        }
        produced = false;
        ctx.fireChannelReadComplete();
    }

    /**
     * Decodes one message; {@code msg} is released after this returns.
     *
     * @param ctx the context of this handler; event loop only
     * @param msg the message to decode; released by this class, so retain what is passed on
     * @param out where decoded messages go; the next handler owns each
     * @throws Exception any failure; it reaches {@code exceptionCaught} wrapped in a {@link DecoderException}
     */
    protected abstract void decode(ChannelHandlerContext ctx, I msg, List<Object> out) throws Exception;
}
