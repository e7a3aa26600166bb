package io.rill.handler.codec;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.socket.ChannelInputShutdownEvent;

/**
 * The decode loop of a {@link ByteToMessageDecoder}: runs {@code decode} over the cumulation,
 * fires the output, handles the events that arrived while it fired (a removal, an end of input,
 * a close) once it has returned, and passes the unconsumed bytes on when the decoder leaves the
 * pipeline.
 *
 * <p>Static methods over the decoder's own fields rather than an object of its own: every message
 * passes through here, and with thousands of connections each extra object per decoder is one more
 * likely cache miss on that path. The decoder's hooks ({@code decode}, {@code decodeLast},
 * {@code internalBuffer}, {@code handlerRemoved0}, {@code channelInactive},
 * {@code userEventTriggered}) are called on the decoder, so subclasses that override them see
 * every call.
 */
final class DecodeLoop {

    /** {@link ByteToMessageDecoder#pending} bits: events that arrived while the loop ran. */
    static final int PENDING_REMOVED = 1;
    static final int PENDING_INACTIVE = 2;
    static final int PENDING_INPUT_SHUTDOWN = 4;

    private DecodeLoop() {
    }

    /** Decodes the cumulation as a read does: the loop, then what its end asks for. */
    static void decodeWhatArrived(ByteToMessageDecoder d, ChannelHandlerContext ctx) throws Exception {
        CodecOutputList out = CodecOutputList.newInstance();
        d.decoding = true;
        try {
            decodeLoop(d, ctx, out, d.singleDecode);
        } finally {
            endDecoding(d, ctx, out, false);
        }
    }

    private static void decodeLoop(ByteToMessageDecoder d, ChannelHandlerContext ctx, CodecOutputList out,
            boolean oneMessage) {
        ByteBuf in;
        // Re-read the field each round: bytes fed in while firing may have replaced the buffer.
        while (!d.suspended && (in = d.cumulation) != null && in.isReadable()) {
            int before = in.readableBytes();
            invokeDecode(d, ctx, in, out, false);
            int consumed = in == d.cumulation ? before - in.readableBytes() : before; // else handed over whole
            int produced = out.size();
            fireAndClear(d, ctx, out);
            if (ctx.isRemoved()) {
                return;
            }
            if (produced == 0) {
                if (consumed == 0) {
                    return; // needs more bytes
                }
                continue;
            }
            if (consumed == 0) {
                throw new DecoderException(d.getClass().getName()
                        + ".decode() produced a message without consuming any byte; it would be called forever");
            }
            if (oneMessage) {
                return;
            }
        }
    }

    private static void invokeDecode(ByteToMessageDecoder d, ChannelHandlerContext ctx, ByteBuf in,
            CodecOutputList out, boolean last) {
        try {
            if (last) {
                d.decodeLast(ctx, in, out);
            } else {
                d.decode(ctx, in, out);
            }
        } catch (DecoderException e) {
            throw e;
        } catch (Exception e) {
            throw new DecoderException(e);
        }
    }

    private static void fireAndClear(ByteToMessageDecoder d, ChannelHandlerContext ctx, CodecOutputList out) {
        int n = out.size();
        if (n == 0) {
            return;
        }
        d.producedSinceReadComplete = true;
        for (int i = 0; i < n; i++) {
            ctx.fireChannelRead(out.getUnchecked(i));
        }
        out.clear();
    }

    /** The end of input: the loop once more, then decodeLast (once per channel), then release. */
    static void decodeRemainder(ByteToMessageDecoder d, ChannelHandlerContext ctx) throws Exception {
        boolean callLast = !d.inputClosed;
        d.inputClosed = true;
        CodecOutputList out = CodecOutputList.newInstance();
        d.decoding = true;
        try {
            decodeLoop(d, ctx, out, false); // at the end of input, single-decode has nothing left to wait for
            if (callLast && !ctx.isRemoved()) {
                invokeDecode(d, ctx, d.internalBuffer(), out, true);
            }
        } finally {
            endDecoding(d, ctx, out, true);
        }
    }

    /**
     * Fires what is left in {@code out}, then handles what happened meanwhile: a removal passes
     * the unconsumed bytes on, the end of input releases them, a normal read tidies them up.
     */
    private static void endDecoding(ByteToMessageDecoder d, ChannelHandlerContext ctx, CodecOutputList out,
            boolean endOfInput) throws Exception {
        fireAndClear(d, ctx, out); // never throws: the pipeline routes handler failures to exceptionCaught
        boolean produced = out.insertSinceRecycled();
        out.recycle();
        d.decoding = false;
        int events = d.pending;
        d.pending = 0;
        boolean removed = (events & PENDING_REMOVED) != 0;
        if (removed) {
            forwardRemainder(d, ctx);
        } else if (endOfInput) {
            releaseCumulation(d);
        } else {
            tidyAfterRead(d);
        }
        if (endOfInput && produced) {
            ctx.fireChannelReadComplete();
        }
        if ((events & PENDING_INPUT_SHUTDOWN) != 0) {
            if (removed) {
                ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            } else {
                d.userEventTriggered(ctx, ChannelInputShutdownEvent.INSTANCE);
            }
        }
        if ((events & PENDING_INACTIVE) != 0) {
            if (removed) {
                ctx.fireChannelInactive();
            } else {
                d.channelInactive(ctx);
            }
        }
    }

    private static void tidyAfterRead(ByteToMessageDecoder d) {
        if (d.cumulation == null) {
            return;
        }
        if (!d.cumulation.isReadable()) {
            releaseCumulation(d);
        } else if (++d.readsSinceDiscard >= d.discardAfterReads) {
            d.readsSinceDiscard = 0;
            d.discardSomeReadBytes();
        }
    }

    static void releaseCumulation(ByteToMessageDecoder d) {
        ByteBuf buf = d.cumulation;
        d.cumulation = null;
        d.readsSinceDiscard = 0;
        if (buf != null) {
            buf.release();
        }
    }

    /** The handler left the pipeline: its unconsumed bytes belong to the next handler now. */
    static void forwardRemainder(ByteToMessageDecoder d, ChannelHandlerContext ctx) throws Exception {
        DecoderSuspension.release(d, ctx);
        ByteBuf buf = d.cumulation;
        d.cumulation = null;
        d.readsSinceDiscard = 0;
        if (buf != null) {
            if (buf.isReadable()) {
                ctx.fireChannelRead(buf);
                ctx.fireChannelReadComplete();
            } else {
                buf.release();
            }
        }
        if (d.inputShutdownWaiting) {
            d.inputShutdownWaiting = false;
            ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        }
        d.handlerRemoved0(ctx);
    }
}
