package io.rill.handler.stream;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.FutureListener;
import io.rill.util.concurrent.Promise;

/**
 * Writes {@link ChunkedInput}s (files, streams) chunk by chunk, only while the channel is
 * writable, so a large body never sits in memory whole. Other messages pass through in
 * order with the chunked ones.
 *
 * <p>Writes are queued here and start at {@code flush}. Chunks are written until the outbound
 * buffer crosses its high water mark; the handler then flushes and waits for
 * {@code channelWritabilityChanged} to resume. An input whose {@code readChunk} returns null
 * (not ready yet) pauses the queue until {@link #resumeTransfer()}.
 *
 * <p>An input's promise succeeds when its last chunk is written; it fails when reading or
 * writing a chunk fails or the channel closes. Every input is closed exactly once, whatever
 * the outcome, and every queued message is released if it cannot be written.
 *
 * <p>Keeps per-channel state: not sharable.
 */
public class ChunkedWriteHandler implements ChannelHandler {

    private static final InternalLogger LOG = InternalLogger.get(ChunkedWriteHandler.class);

    /** Messages written to this handler and not yet passed on (an input: not fully passed on). */
    private final ArrayDeque<PendingWrite> queue = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    /** True while {@link #transfer()} runs: a writability change it causes must not re-enter it. */
    private boolean transferring;
    /** A flush arrived that has not been passed on yet. */
    private boolean flushRequested;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        discard(new ChannelException("ChunkedWriteHandler removed with writes pending"));
    }

    /** Continues writing after an input that had no chunk ready has one now; any thread. */
    public void resumeTransfer() {
        ChannelHandlerContext c = ctx;
        if (c == null) {
            return;
        }
        if (c.executor().inEventLoop()) {
            transfer();
        } else {
            c.executor().execute(this::transfer);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        queue.add(new PendingWrite(msg, promise));
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        // Handlers nearer the head may have written without flushing: the flush goes on even with nothing queued here.
        flushRequested = true;
        transfer();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            transfer();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        transfer();
        ctx.fireChannelInactive();
    }

    /** Passes queued messages and chunks on while the channel takes them; flushes what it passed. */
    private void transfer() {
        if (transferring || ctx == null || ctx.isRemoved()) {
            return;
        }
        transferring = true;
        try {
            transferWhileWritable();
        } finally {
            transferring = false;
        }
    }

    private void transferWhileWritable() {
        Channel ch = ctx.channel();
        boolean unflushed = false;
        for (PendingWrite current; (current = queue.peek()) != null; ) {
            if (!ch.isActive()) {
                discard(new ClosedChannelException());
                return;
            }
            if (!ch.isWritable()) {
                // Flushing may drain the buffer at once (a fast peer): look again before waiting.
                ctx.flush();
                unflushed = flushRequested = false;
                if (!ch.isWritable()) {
                    return;
                }
            }
            if (current.promise.isDone()) {
                // Cancelled by the application, or failed by an earlier chunk's write.
                queue.poll();
                current.abandon(null);
                continue;
            }
            if (!(current.msg instanceof ChunkedInput<?> input)) {
                queue.poll();
                ctx.write(current.msg, current.promise);
                unflushed = true;
                continue;
            }
            int outcome = current.writeNextChunk(input);
            if (outcome == NOT_READY) {
                break;
            }
            unflushed |= outcome == WROTE;
        }
        if (unflushed || flushRequested) {
            flushRequested = false;
            ctx.flush();
        }
    }

    /** Fails and releases (or closes) everything queued. */
    private void discard(Throwable cause) {
        for (PendingWrite p; (p = queue.poll()) != null; ) {
            p.abandon(cause);
        }
    }

    private static void closeInput(ChunkedInput<?> input) {
        try {
            input.close();
        } catch (Throwable t) {
            LOG.warn("Failed to close a chunked input: {}", input, t);
        }
    }

    private static final int WROTE = 0;
    private static final int NOT_READY = 1;
    private static final int FAILED = 2;

    /** A message and its promise; for an input, also the listener of its chunk writes. */
    private final class PendingWrite implements FutureListener<Void> {

        final Object msg;
        final Promise<Void> promise;
        /** The write of the input's last chunk, once passed on. */
        private Future<Void> lastChunk;
        private boolean inputClosed;

        PendingWrite(Object msg, Promise<Void> promise) {
            this.msg = msg;
            this.promise = promise;
        }

        /** Reads one chunk and passes it on: WROTE, NOT_READY (nothing available yet) or FAILED. */
        int writeNextChunk(ChunkedInput<?> input) {
            Object chunk;
            boolean end;
            try {
                chunk = input.readChunk(ctx.alloc());
                end = input.isEndOfInput();
            } catch (Throwable t) {
                queue.poll();
                fail(t);
                return FAILED;
            }
            if (chunk == null && !end) {
                return NOT_READY;
            }
            if (end) {
                queue.poll();
            }
            // The end still travels as an (empty) write, so the promise completes after every chunk before it.
            Future<Void> written = ctx.write(chunk == null ? Unpooled.EMPTY_BUFFER : chunk, ctx.newPromise());
            if (end) {
                lastChunk = written;
            }
            written.addListener(this);
            return WROTE;
        }

        @Override
        public void operationComplete(Future<? extends Void> f) {
            if (!f.isSuccess()) {
                fail(f.cause());
            } else if (f == lastChunk) {
                closeOnce();
                promise.trySuccess(null);
            }
        }

        /** The message will not be written: releases or closes it, fails the promise unless {@code cause} is null. */
        void abandon(Throwable cause) {
            if (msg instanceof ChunkedInput<?>) {
                closeOnce();
            } else {
                ReferenceCountUtil.safeRelease(msg);
            }
            if (cause != null) {
                promise.tryFailure(cause);
            }
        }

        private void fail(Throwable cause) {
            closeOnce();
            promise.tryFailure(cause);
        }

        private void closeOnce() {
            if (!inputClosed) {
                inputClosed = true;
                closeInput((ChunkedInput<?>) msg);
            }
        }
    }
}
