package io.rill.handler.codec;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.socket.ChannelInputShutdownEvent;

/**
 * Runs a {@link ByteToMessageDecoder}'s decode loop over its cumulation and fires the output,
 * and guards the loop against re-entrancy: a removal, an end of input or a close that arrives
 * while the loop fires a message is recorded here and handled once the loop has returned. It
 * also passes the unconsumed bytes on when the decoder leaves the pipeline.
 *
 * <p>One per decoder, created with it. The decoder's hooks ({@code decode}, {@code decodeLast},
 * {@code internalBuffer}, {@code handlerRemoved0}, {@code channelInactive},
 * {@code userEventTriggered}) are called on it, so subclasses that override them see every call
 * they saw before.
 */
final class DecodeLoop {

    static final int REMOVED = 1;
    static final int INACTIVE = 2;
    static final int INPUT_SHUTDOWN = 4;

    private final ByteToMessageDecoder decoder;
    private final Cumulation cumulation;
    private final DecoderSuspension suspension;
    /** True while the decode loop runs or fires its output; events arriving then are deferred. */
    private boolean running;
    /** REMOVED, INACTIVE, INPUT_SHUTDOWN bits: events that arrived while {@link #running}. */
    private int pending;
    /** Something went downstream since the last channelReadComplete. */
    private boolean producedSinceReadComplete;
    /** decodeLast has run (input shutdown, then inactive): it runs once per channel. */
    private boolean inputClosed;

    DecodeLoop(ByteToMessageDecoder decoder, Cumulation cumulation, DecoderSuspension suspension) {
        this.decoder = decoder;
        this.cumulation = cumulation;
        this.suspension = suspension;
    }

    boolean isRunning() {
        return running;
    }

    /** Records {@code event} for when the loop returns, if it runs; says whether it did. */
    boolean deferIfRunning(int event) {
        if (running) {
            pending |= event;
            return true;
        }
        return false;
    }

    boolean producedSinceReadComplete() {
        return producedSinceReadComplete;
    }

    void markProduced() {
        producedSinceReadComplete = true;
    }

    void readCompleted() {
        producedSinceReadComplete = false;
    }

    /** The end of input with a suspension in force: what waited is dropped, decodeLast never runs. */
    void dropRemainder() {
        inputClosed = true;
        cumulation.release();
    }

    /** Decodes the cumulation as a read does: the loop, then what its end asks for. */
    void decodeWhatArrived(ChannelHandlerContext ctx, boolean singleDecode) throws Exception {
        CodecOutputList out = CodecOutputList.newInstance();
        running = true;
        try {
            decodeLoop(ctx, out, singleDecode);
        } finally {
            endDecoding(ctx, out, false);
        }
    }

    /** The end of input: the loop once more, then decodeLast (once per channel), then release. */
    void decodeRemainder(ChannelHandlerContext ctx) throws Exception {
        boolean callLast = !inputClosed;
        inputClosed = true;
        CodecOutputList out = CodecOutputList.newInstance();
        running = true;
        try {
            decodeLoop(ctx, out, false); // at the end of input, single-decode has nothing left to wait for
            if (callLast && !ctx.isRemoved()) {
                invokeDecode(ctx, decoder.internalBuffer(), out, true);
            }
        } finally {
            endDecoding(ctx, out, true);
        }
    }

    private void decodeLoop(ChannelHandlerContext ctx, CodecOutputList out, boolean oneMessage) {
        ByteBuf in;
        // Re-read the field each round: bytes fed in while firing may have replaced the buffer.
        while (!suspension.isActive() && (in = cumulation.buffer()) != null && in.isReadable()) {
            int before = in.readableBytes();
            invokeDecode(ctx, in, out, false);
            int consumed = in == cumulation.buffer() ? before - in.readableBytes() : before; // else handed over whole
            int produced = out.size();
            fireAndClear(ctx, out);
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
                throw new DecoderException(decoder.getClass().getName()
                        + ".decode() produced a message without consuming any byte; it would be called forever");
            }
            if (oneMessage) {
                return;
            }
        }
    }

    private void invokeDecode(ChannelHandlerContext ctx, ByteBuf in, CodecOutputList out, boolean last) {
        try {
            if (last) {
                decoder.decodeLast(ctx, in, out);
            } else {
                decoder.decode(ctx, in, out);
            }
        } catch (DecoderException e) {
            throw e;
        } catch (Exception e) {
            throw new DecoderException(e);
        }
    }

    private void fireAndClear(ChannelHandlerContext ctx, CodecOutputList out) {
        int n = out.size();
        if (n == 0) {
            return;
        }
        producedSinceReadComplete = true;
        for (int i = 0; i < n; i++) {
            ctx.fireChannelRead(out.getUnchecked(i));
        }
        out.clear();
    }

    /**
     * Fires what is left in {@code out}, then handles what happened meanwhile: a removal passes
     * the unconsumed bytes on, the end of input releases them, a normal read tidies them up.
     */
    private void endDecoding(ChannelHandlerContext ctx, CodecOutputList out, boolean endOfInput) throws Exception {
        fireAndClear(ctx, out); // never throws: the pipeline routes handler failures to exceptionCaught
        boolean produced = out.insertSinceRecycled();
        out.recycle();
        running = false;
        int events = pending;
        pending = 0;
        boolean removed = (events & REMOVED) != 0;
        if (removed) {
            forwardRemainder(ctx);
        } else if (endOfInput) {
            cumulation.release();
        } else {
            cumulation.tidyAfterRead();
        }
        if (endOfInput && produced) {
            ctx.fireChannelReadComplete();
        }
        if ((events & INPUT_SHUTDOWN) != 0) {
            if (removed) {
                ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            } else {
                decoder.userEventTriggered(ctx, ChannelInputShutdownEvent.INSTANCE);
            }
        }
        if ((events & INACTIVE) != 0) {
            if (removed) {
                ctx.fireChannelInactive();
            } else {
                decoder.channelInactive(ctx);
            }
        }
    }

    /** The decoder left the pipeline: its unconsumed bytes belong to the next handler now. */
    void forwardRemainder(ChannelHandlerContext ctx) throws Exception {
        suspension.release(ctx);
        ByteBuf buf = cumulation.take();
        if (buf != null) {
            if (buf.isReadable()) {
                ctx.fireChannelRead(buf);
                ctx.fireChannelReadComplete();
            } else {
                buf.release();
            }
        }
        if (suspension.takeInputShutdown()) {
            ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        }
        decoder.handlerRemoved0(ctx);
    }
}
