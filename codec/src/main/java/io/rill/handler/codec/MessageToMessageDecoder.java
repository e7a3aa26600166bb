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

    protected MessageToMessageDecoder(Class<? extends I> inboundType) {
        if (inboundType == null) {
            throw new NullPointerException("inboundType");
        }
        this.inboundType = inboundType;
    }

    /** True if {@code msg} goes to {@link #decode}; by default, if it is an {@code I}. */
    public boolean acceptInboundMessage(Object msg) throws Exception {
        return inboundType.isInstance(msg);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        CodecOutputList out = CodecOutputList.newInstance();
        try {
            if (acceptInboundMessage(msg)) {
                @SuppressWarnings("unchecked")
                I cast = (I) msg;
                try {
                    decode(ctx, cast, out);
                } finally {
                    ReferenceCountUtil.release(cast);
                }
            } else {
                out.add(msg);
            }
        } catch (DecoderException e) {
            throw e;
        } catch (Exception e) {
            throw new DecoderException(e);
        } finally {
            int n = out.size();
            produced |= n > 0;
            for (int i = 0; i < n; i++) {
                ctx.fireChannelRead(out.getUnchecked(i));
            }
            out.recycle();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (!produced && !ctx.channel().config().isAutoRead()) {
            ctx.read(); // everything read was swallowed and nobody downstream will ask for more
        }
        produced = false;
        ctx.fireChannelReadComplete();
    }

    /** Decodes one message; {@code msg} is released after this returns. */
    protected abstract void decode(ChannelHandlerContext ctx, I msg, List<Object> out) throws Exception;
}
