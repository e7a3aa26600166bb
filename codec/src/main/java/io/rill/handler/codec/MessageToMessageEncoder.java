package io.rill.handler.codec;

import java.util.List;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.TypeParameterMatcher;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.FutureListener;
import io.rill.util.concurrent.Promise;

/**
 * Turns each outbound message of type {@code I} into one or more messages; other messages pass
 * on untouched. The input is released after {@link #encode} returns. When several messages come
 * out, the write's promise completes when all of them were written (or fails with the first
 * failure).
 */
public abstract class MessageToMessageEncoder<I> implements ChannelHandler {

    private final Class<?> outboundType;

    /** Resolves {@code I} from the subclass's type argument. */
    protected MessageToMessageEncoder() {
        this.outboundType = TypeParameterMatcher.find(getClass(), MessageToMessageEncoder.class, "I");
    }

    /**
     * Encodes messages of {@code outboundType}, for subclasses whose type argument cannot be resolved.
     *
     * @param outboundType the class of the messages to encode; not null
     * @throws NullPointerException if {@code outboundType} is null
     */
    protected MessageToMessageEncoder(Class<? extends I> outboundType) {
        if (outboundType == null) {
            throw new NullPointerException("outboundType");
        }
        this.outboundType = outboundType;
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
        CodecOutputList out = CodecOutputList.newInstance();
        try {
            encodeAndRelease(ctx, msg, out);
            if (out.isEmpty()) {
                throw new EncoderException(getClass().getName() + ".encode() produced no message");
            }
            writeAll(ctx, out, promise);
        } catch (Throwable t) {
            for (int i = 0; i < out.size(); i++) {
                ReferenceCountUtil.safeRelease(out.getUnchecked(i));
            }
            throw t instanceof EncoderException e ? e : new EncoderException(t);
        } finally {
            out.recycle();
        }
    }

    private void encodeAndRelease(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
        @SuppressWarnings("unchecked")
        I cast = (I) msg;
        try {
            encode(ctx, cast, out);
        } finally {
            ReferenceCountUtil.release(cast);
        }
    }

    /** Writes every message; clears {@code out} so nothing is released twice on a later failure. */
    private static void writeAll(ChannelHandlerContext ctx, CodecOutputList out, Promise<Void> promise) {
        int n = out.size();
        if (n == 1 || promise == ctx.voidPromise()) {
            for (int i = 0; i < n; i++) {
                ctx.write(out.getUnchecked(i), promise);
            }
        } else {
            FutureListener<Void> aggregate = allOf(n, promise);
            for (int i = 0; i < n; i++) {
                ctx.write(out.getUnchecked(i)).addListener(aggregate);
            }
        }
        out.clear();
    }

    /** A listener that completes {@code promise} after {@code count} writes: failed by the first failure. */
    private static FutureListener<Void> allOf(int count, Promise<Void> promise) {
        int[] left = {count}; // only touched on the channel's event loop, where writes complete
        return (Future<? extends Void> f) -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
            } else if (--left[0] == 0) {
                promise.trySuccess(null);
            }
        };
    }

    /**
     * Encodes one message; {@code msg} is released after this returns.
     *
     * @param ctx the context of this handler; event loop only
     * @param msg the message to encode; released by this class, so retain what is passed on
     * @param out where encoded messages go; they are written on in order, and the write's promise waits for
     *            all
     * @throws Exception any failure; the write fails with it, wrapped in an {@link EncoderException}
     */
    protected abstract void encode(ChannelHandlerContext ctx, I msg, List<Object> out) throws Exception;
}
