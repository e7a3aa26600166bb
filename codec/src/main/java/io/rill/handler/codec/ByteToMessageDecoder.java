package io.rill.handler.codec;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.socket.ChannelInputShutdownEvent;

/**
 * Turns a stream of bytes into messages. Bytes are cumulated until {@link #decode} can make a
 * message of them; TCP delivers a frame in as many pieces as it likes, so a decoder is called
 * again and again, each time with everything received and not yet consumed.
 *
 * <pre>
 *   channelRead(buf) ─► cumulation += buf ─► loop:
 *        decode(ctx, cumulation, out) ─► fire every message in out downstream
 *        ├─ consumed nothing, produced nothing  → stop: it needs more bytes
 *        ├─ produced without consuming           → DecoderException (it would loop forever)
 *        ├─ single-decode mode and produced      → stop: the rest waits for the next read
 *        └─ the handler removed itself           → stop: the rest goes to the next handler
 * </pre>
 *
 * <p><b>The end of input.</b> When the channel goes inactive (or its input is shut down), the
 * loop runs once more, then {@link #decodeLast} gets what is left, so a decoder can emit a
 * partial frame or fail on it; then the cumulation is released.
 *
 * <p><b>Leaving the pipeline.</b> A decoder may remove itself (a protocol switch): the bytes it
 * did not consume are passed on to the next handler as one {@code ByteBuf}, then
 * {@link #handlerRemoved0} runs.
 *
 * <p><b>Re-entrancy.</b> A handler downstream may close the channel, remove this decoder or even
 * feed it more bytes while this decoder's loop is firing a message. Those events are recorded
 * and handled when the loop returns, so the loop never works on a buffer released under it.
 *
 * <p><b>Running out of memory.</b> When the cumulation cannot grow (or {@code decode} runs out of
 * memory), the bytes of that read are lost, and decoding what comes after them would read a later
 * read's bytes as the rest of an earlier frame. So the decoder breaks: it releases what it holds,
 * drops every later byte unread, decodes nothing more (not even {@link #decodeLast}), passes the
 * error on and closes the channel. It does the same when the small buffer of the end of a burst
 * (below) cannot be had.
 *
 * <p><b>Between bursts.</b> When a read burst ends with part of a frame left over and that part
 * fills at most a quarter of a buffer of {@value #SHRINK_MIN_CAPACITY} bytes or more, it is moved
 * to a buffer of its own size: the big buffer is usually the read buffer itself, and a connection
 * that stops sending mid-frame (a slow or hostile peer, or thousands of quiet ones) would otherwise
 * keep up to a whole read buffer for a few bytes for as long as it stays open.
 *
 * <p><b>Suspension.</b> A decoder whose output must wait until the channel can take more (a
 * decompressor answering a peer that does not read) calls {@link #suspendDecoding}: bytes that
 * arrive are only cumulated, reading stops, and {@link #resumeDecoding} later decodes what waited.
 *
 * <p>The buffer passed to {@code decode} belongs to this class: a decoder reads from it (moving
 * its reader index) and may take retained slices, but must not release it. Decoders keep
 * per-channel state, so they are never {@link ChannelHandler.Sharable}.
 */
public abstract class ByteToMessageDecoder implements ChannelHandler {

    // All per-channel state lives in fields of the decoder itself, and the loop below works on them
    // directly: a decoder is one object on the path of every message, with no helper objects (and
    // their cache misses) behind it.

    /** {@link #pending} bits: events that arrived while the loop ran. */
    private static final int PENDING_REMOVED = 1;
    private static final int PENDING_INACTIVE = 2;
    private static final int PENDING_INPUT_SHUTDOWN = 4;

    /** Received bytes not yet consumed; null when there are none. */
    private ByteBuf cumulation;
    private Cumulator cumulator = Cumulator.MERGE;
    private boolean singleDecode;
    /** Capacity from which a mostly empty cumulation is moved to a smaller buffer at the end of a burst. */
    static final int SHRINK_MIN_CAPACITY = 16 * 1024;

    /** Compact the cumulation after this many reads that left bytes behind. */
    private int discardAfterReads = 16;
    /** Reads since the cumulation was last emptied or compacted. */
    private int readsSinceDiscard;
    /** True while the decode loop runs or fires its output; events arriving then are deferred. */
    private boolean decoding;
    /** {@code PENDING_*} bits: events that arrived while {@link #decoding}. */
    private int pending;
    /** Something went downstream since the last channelReadComplete. */
    private boolean producedSinceReadComplete;
    /** decodeLast has run (input shutdown, then inactive): it runs once per channel. */
    private boolean inputClosed;
    /** {@link #suspendDecoding} was called: decode is not called until {@link #resumeDecoding}. */
    private boolean suspended;
    /** This decoder turned AUTO_READ off to suspend, so resuming turns it back on. */
    private boolean clearedAutoRead;
    /** The input was shut down while suspended: the end of input is handled on resume. */
    private boolean inputShutdownWaiting;
    /** A read was asked for while suspended (and held back): it is asked for on resume. */
    private boolean readWanted;
    /** Bytes were lost (the cumulation could not grow): nothing is decoded any more, every later byte is dropped. */
    private boolean broken;

    /**
     * Creates a decoder with the {@link Cumulator#MERGE} cumulator, single-decode off.
     *
     * @throws IllegalStateException if the subclass is annotated {@link ChannelHandler.Sharable}
     */
    protected ByteToMessageDecoder() {
        if (getClass().isAnnotationPresent(ChannelHandler.Sharable.class)) {
            throw new IllegalStateException(getClass().getName()
                    + " is a decoder and keeps per-channel state: it must not be @Sharable");
        }
    }

    /**
     * Chooses how reads are joined ({@link Cumulator#MERGE} by default).
     *
     * @param cumulator how the next reads are joined to the bytes already received; not null
     */
    public void setCumulator(Cumulator cumulator) {
        if (cumulator == null) {
            throw new NullPointerException("cumulator");
        }
        this.cumulator = cumulator;
    }

    /**
     * With single-decode on, each read decodes at most one message and keeps the rest for the
     * next read. Useful when a later handler replaces this one after the first message.
     *
     * @param singleDecode true to decode at most one message per read
     */
    public void setSingleDecode(boolean singleDecode) {
        this.singleDecode = singleDecode;
    }

    /**
     * Whether each read decodes at most one message; see {@link #setSingleDecode}.
     *
     * @return true when single-decode is on
     */
    public boolean isSingleDecode() {
        return singleDecode;
    }

    /**
     * Compacts the cumulation (drops consumed bytes) after {@code reads} reads that left bytes
     * behind, and at every channelReadComplete; default 16. Compacting on every read would copy
     * too much when a frame arrives in many small pieces; never compacting would let a buffer
     * that is never fully consumed grow without bound.
     *
     * @param reads the number of reads after which the cumulation is compacted; at least 1
     */
    public void setDiscardAfterReads(int reads) {
        if (reads <= 0) {
            throw new IllegalArgumentException("discardAfterReads: " + reads + " (expected: > 0)");
        }
        this.discardAfterReads = reads;
    }

    /**
     * The bytes received and not yet consumed (an empty buffer if none). Do not release it.
     *
     * @return the cumulation, still owned by this decoder
     */
    protected ByteBuf internalBuffer() {
        return cumulation != null ? cumulation : Unpooled.EMPTY_BUFFER;
    }

    /**
     * Hands over {@code in}, the buffer {@link #decode} was given, to become (part of) a message,
     * when this decoder may: when it is the cumulation and nobody else can reach its bytes
     * ({@link ByteBufUtil#isExclusive}).
     * A message that ends where the received bytes end (one frame per read, the common case) can
     * then be made of the buffer the transport read into, with no copy and no new buffer object,
     * and even changed in place. After a hand-over, {@code decode} must not touch {@code in} again
     * except through the message, which owns it: the next read starts a new cumulation.
     *
     * @param in the buffer given to {@code decode}
     * @return true if {@code in} (with all its readable bytes) now belongs to the caller; false if
     *         it still belongs to this decoder and the caller must copy or slice what it needs
     */
    protected final boolean handOver(ByteBuf in) {
        if (in != cumulation || !ByteBufUtil.isExclusive(in)) {
            return false;
        }
        cumulation = null;
        readsSinceDiscard = 0;
        return true;
    }

    /**
     * How many received bytes wait to be decoded.
     *
     * @return the number of readable bytes in the cumulation
     */
    protected int actualReadableBytes() {
        return internalBuffer().readableBytes();
    }

    /**
     * Makes messages of {@code in}'s readable bytes and adds them to {@code out}. Called until it
     * neither consumes nor produces; it should consume only whole frames (or leave {@code in}
     * untouched and wait for more).
     *
     * @param ctx the context of this handler; event loop only, like every call into a decoder
     * @param in  the bytes received and not yet consumed; owned by this class, never released by {@code
     *           decode}
     * @param out where decoded messages go; each passes to the next handler, which then owns it
     * @throws Exception any failure; it reaches {@code exceptionCaught} wrapped in a {@link DecoderException}
     */
    protected abstract void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception;

    /**
     * Called once when the input ends, with what the decode loop left (possibly nothing). By
     * default it decodes once more if bytes remain; override to emit or reject a partial frame.
     *
     * @param ctx the context of this handler
     * @param in  the bytes left over, possibly none; owned by this class
     * @param out where decoded messages go
     * @throws Exception any failure, passed on like one from {@link #decode}
     */
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
    }

    /**
     * Called after the handler left the pipeline and its remaining bytes were passed on.
     *
     * @param ctx the context this handler had
     * @throws Exception any failure; it reaches the pipeline's {@code exceptionCaught}
     */
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
    }

    // ---------------------------------------------------------------- events

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf data)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (broken) {
            data.release();
            return;
        }
        try {
            cumulation = cumulation == null ? data : cumulator.cumulate(ctx.alloc(), cumulation, data);
        } catch (RuntimeException | OutOfMemoryError e) { // the cumulator released data: its bytes are gone
            breakOn(ctx, e);
            return;
        }
        if (suspended) {
            // Someone turned reading on again: at most one more read burst waits here.
            stopReading(ctx.channel().config());
            return;
        }
        if (decoding) {
            return; // fed from downstream while firing: the running loop decodes these bytes too
        }
        try {
            decodeWhatArrived(ctx);
        } catch (OutOfMemoryError e) { // decode's state is where the failed allocation left it
            breakOn(ctx, e);
        }
    }

    /**
     * Stops decoding for good after bytes were lost: releases the cumulation, drops every later
     * byte, passes {@code cause} on and closes the channel (see the class comment).
     */
    private void breakOn(ChannelHandlerContext ctx, Throwable cause) {
        broken = true;
        inputClosed = true; // no decodeLast over bytes with a hole in them
        ByteBuf held = cumulation;
        cumulation = null;
        if (held != null && held.refCnt() > 0) {
            held.release();
        }
        ctx.fireExceptionCaught(cause);
        ctx.close();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        readsSinceDiscard = 0;
        if (!shrinkCumulation(ctx)) {
            discardSomeReadBytes();
        }
        // Also while reading is paused for a full outbound buffer: output that waits on input (a TLS
        // handshake, a flow-control window) would otherwise wait for ever.
        if (!producedSinceReadComplete && !ctx.channel().config().isReadingAutomatically()) {
            if (suspended) {
                readWanted = true; // for resume to ask
            } else {
                ctx.read(); // nothing came of this read and nobody downstream will ask for another
            }
        }
        producedSinceReadComplete = false;
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (decoding) {
            pending |= PENDING_INACTIVE;
            return;
        }
        if (suspended) {
            // What waited could never be answered now: drop it rather than decode it for nobody.
            inputClosed = true;
            releaseCumulation();
            ctx.fireChannelInactive();
            return;
        }
        try {
            decodeRemainder(ctx);
        } finally {
            ctx.fireChannelInactive();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt != ChannelInputShutdownEvent.INSTANCE) {
            ctx.fireUserEventTriggered(evt);
        } else if (decoding) {
            pending |= PENDING_INPUT_SHUTDOWN;
        } else if (suspended) {
            inputShutdownWaiting = true; // the bytes before the end are decoded first, on resume
        } else {
            try {
                decodeRemainder(ctx);
            } finally {
                ctx.fireUserEventTriggered(evt);
            }
        }
    }

    @Override
    public final void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        if (decoding) {
            pending |= PENDING_REMOVED;
            return;
        }
        forwardRemainder(ctx);
    }

    /**
     * Passes {@code msg} downstream at once instead of through {@code out}: for decoders whose one
     * input expands into many large messages (decompression), which the list would otherwise hold
     * all at once. Use it only from {@link #decode}/{@link #decodeLast}, and not in the same call
     * as {@code out}, so messages keep their order.
     *
     * @param ctx the context of this handler
     * @param msg the decoded message; ownership passes to the next handler
     */
    protected final void fireDecoded(ChannelHandlerContext ctx, Object msg) {
        producedSinceReadComplete = true;
        ctx.fireChannelRead(msg);
    }

    /**
     * Stops decoding until {@link #resumeDecoding}: {@code decode} is not called, bytes that still
     * arrive are only cumulated, and reading stops (AUTO_READ is turned off, and turned on again by
     * resume; it is turned off again should anyone else turn it on meanwhile; {@code read()}
     * requests from the handlers after this one are held back until resume). Meant to be called
     * from {@code decode}, which should then return: output waits for the channel, not in memory.
     *
     * @param ctx the context of this handler
     */
    protected final void suspendDecoding(ChannelHandlerContext ctx) {
        suspended = true;
        stopReading(ctx.channel().config());
    }

    /**
     * True between {@link #suspendDecoding} and {@link #resumeDecoding}.
     *
     * @return whether decoding is suspended
     */
    protected final boolean isDecodingSuspended() {
        return suspended;
    }

    /**
     * Ends a suspension: decodes the bytes that waited, then fires {@code channelReadComplete} if
     * that produced anything (handlers that flush there must flush this too), and reads again
     * unless {@code decode} suspended once more. Event loop only, and not from inside
     * {@code decode} or a handler it fires to: call it from a task of its own.
     *
     * @param ctx the context of this handler
     * @throws Exception what decoding the waiting bytes throws
     */
    protected final void resumeDecoding(ChannelHandlerContext ctx) throws Exception {
        if (!suspended || decoding || ctx.isRemoved()) {
            return;
        }
        suspended = false;
        decodeWhatArrived(ctx);
        if (suspended || ctx.isRemoved()) {
            return;
        }
        ChannelConfig config = ctx.channel().config();
        boolean wanted = readWanted;
        readWanted = false;
        if (clearedAutoRead) {
            clearedAutoRead = false;
            config.setAutoRead(true);
        }
        if (producedSinceReadComplete) {
            channelReadComplete(ctx);
        } else if (wanted && !config.isAutoRead()) {
            ctx.read(); // asked for while suspended and held back
        }
        if (inputShutdownWaiting) {
            inputShutdownWaiting = false;
            userEventTriggered(ctx, ChannelInputShutdownEvent.INSTANCE);
        }
    }

    /**
     * Holds a read back while suspended: a handler after this one that saw nothing come of a read
     * asks for another, and reading would go on for ever with every byte cumulated here.
     */
    @Override
    public void read(ChannelHandlerContext ctx) {
        if (suspended) {
            readWanted = true;
        } else {
            ctx.read();
        }
    }

    /**
     * Moves what is left of a mostly consumed cumulation to a buffer of its size (see "Between
     * bursts" above). Returns false when there was nothing to move: the cumulation is shared, small
     * or busy. When the smaller buffer cannot be had, memory has run out: the decoder breaks as when
     * its cumulation cannot grow, so that running out of memory ends a connection the same way
     * whichever allocation of its read path failed.
     */
    private boolean shrinkCumulation(ChannelHandlerContext ctx) {
        ByteBuf held = cumulation;
        if (held == null || decoding || held.refCnt() != 1 || held.capacity() < SHRINK_MIN_CAPACITY) {
            return false;
        }
        int left = held.readableBytes();
        if (left == 0 || left > held.capacity() / 4) {
            return false;
        }
        ByteBuf smaller;
        try {
            smaller = ctx.alloc().buffer(left);
        } catch (RuntimeException | OutOfMemoryError e) {
            breakOn(ctx, e);
            return true;
        }
        smaller.writeBytes(held, held.readerIndex(), left);
        cumulation = smaller;
        held.release();
        return true;
    }

    /** Drops consumed bytes from the cumulation, unless a retained slice of it is still out there. */
    protected final void discardSomeReadBytes() {
        if (cumulation != null && !decoding && cumulation.refCnt() == 1) {
            cumulation.discardSomeReadBytes();
        }
    }

    // ---------------------------------------------------------------- the decode loop

    /** Decodes the cumulation as a read does: the loop, then what its end asks for. */
    private void decodeWhatArrived(ChannelHandlerContext ctx) throws Exception {
        CodecOutputList out = CodecOutputList.newInstance();
        decoding = true;
        try {
            decodeLoop(ctx, out, singleDecode);
        } finally {
            endDecoding(ctx, out, false);
        }
    }

    private void decodeLoop(ChannelHandlerContext ctx, CodecOutputList out, boolean oneMessage) {
        ByteBuf in;
        // Re-read the field each round: bytes fed in while firing may have replaced the buffer.
        while (!suspended && (in = cumulation) != null && in.isReadable()) {
            int before = in.readableBytes();
            invokeDecode(ctx, in, out, false);
            int consumed = in == cumulation ? before - in.readableBytes() : before; // else handed over whole
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
                throw new DecoderException(getClass().getName()
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
                decodeLast(ctx, in, out);
            } else {
                decode(ctx, in, out);
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

    /** The end of input: the loop once more, then decodeLast (once per channel), then release. */
    private void decodeRemainder(ChannelHandlerContext ctx) throws Exception {
        boolean callLast = !inputClosed;
        inputClosed = true;
        CodecOutputList out = CodecOutputList.newInstance();
        decoding = true;
        try {
            decodeLoop(ctx, out, false); // at the end of input, single-decode has nothing left to wait for
            if (callLast && !ctx.isRemoved()) {
                invokeDecode(ctx, internalBuffer(), out, true);
            }
        } finally {
            endDecoding(ctx, out, true);
        }
    }

    /**
     * Fires what is left in {@code out}, then handles what happened meanwhile: a removal passes
     * the unconsumed bytes on, the end of input releases them, a normal read tidies them up.
     * The deferred events go to this decoder's own (overridable) handlers, or straight on when it
     * was removed meanwhile.
     */
    private void endDecoding(ChannelHandlerContext ctx, CodecOutputList out, boolean endOfInput) throws Exception {
        fireAndClear(ctx, out); // never throws: the pipeline routes handler failures to exceptionCaught
        boolean produced = out.insertSinceRecycled();
        out.recycle();
        decoding = false;
        int events = pending;
        pending = 0;
        boolean removed = (events & PENDING_REMOVED) != 0;
        if (removed) {
            forwardRemainder(ctx);
        } else if (endOfInput) {
            releaseCumulation();
        } else {
            tidyAfterRead();
        }
        if (endOfInput && produced) {
            ctx.fireChannelReadComplete();
        }
        if ((events & PENDING_INPUT_SHUTDOWN) != 0) {
            if (removed) {
                ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            } else {
                userEventTriggered(ctx, ChannelInputShutdownEvent.INSTANCE);
            }
        }
        if ((events & PENDING_INACTIVE) != 0) {
            if (removed) {
                ctx.fireChannelInactive();
            } else {
                channelInactive(ctx);
            }
        }
    }

    private void tidyAfterRead() {
        if (cumulation == null) {
            return;
        }
        if (!cumulation.isReadable()) {
            releaseCumulation();
        } else if (++readsSinceDiscard >= discardAfterReads) {
            readsSinceDiscard = 0;
            discardSomeReadBytes();
        }
    }

    private void releaseCumulation() {
        ByteBuf buf = cumulation;
        cumulation = null;
        readsSinceDiscard = 0;
        if (buf != null) {
            buf.release();
        }
    }

    /** The handler left the pipeline: its unconsumed bytes belong to the next handler now. */
    private void forwardRemainder(ChannelHandlerContext ctx) throws Exception {
        endSuspension(ctx);
        ByteBuf buf = cumulation;
        cumulation = null;
        readsSinceDiscard = 0;
        if (buf != null) {
            if (buf.isReadable()) {
                ctx.fireChannelRead(buf);
                ctx.fireChannelReadComplete();
            } else {
                buf.release();
            }
        }
        if (inputShutdownWaiting) {
            inputShutdownWaiting = false;
            ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        }
        handlerRemoved0(ctx);
    }

    // ---------------------------------------------------------------- suspension
    // While suspended, this decoder holds back reading (AUTO_READ turned off, read() requests from
    // later handlers kept) and an end of input that arrived meanwhile. Resuming or leaving the
    // pipeline gives all of it back, so a suspension never leaves the channel unable to read.

    /** Turns AUTO_READ off (again, should anyone have turned it on), remembering to restore it. */
    private void stopReading(ChannelConfig config) {
        if (config.isAutoRead()) {
            config.setAutoRead(false);
            clearedAutoRead = true;
        }
    }

    /** The decoder left the pipeline: the held-back read is asked for and AUTO_READ restored. */
    private void endSuspension(ChannelHandlerContext ctx) {
        suspended = false;
        if (readWanted) {
            readWanted = false;
            ctx.read();
        }
        if (clearedAutoRead) {
            clearedAutoRead = false;
            ctx.channel().config().setAutoRead(true);
        }
    }
}
