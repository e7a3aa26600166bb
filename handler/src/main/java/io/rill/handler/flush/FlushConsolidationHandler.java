package io.rill.handler.flush;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Promise;

/**
 * Merges flushes into fewer system calls. A server that answers each request with
 * {@code writeAndFlush} during a read burst pays one {@code write(2)} per answer; with this
 * handler near the head of the pipeline, flushes requested during a burst are held back and
 * done once when the burst ends ({@code channelReadComplete}), or earlier after
 * {@code explicitFlushAfterFlushes} of them, so latency stays bounded under a long burst.
 *
 * <p>Flushes requested outside a read burst go through at once, unless
 * {@code consolidateWhenNoReadInProgress}: they are then merged into one flush run as a task
 * after the current one, which helps when many application threads write to one channel.
 *
 * <p>Held flushes are done before anything that could lose them or let them wait too long:
 * close, disconnect, an exception, the channel becoming unwritable, the handler's removal.
 *
 * <p>Keeps per-channel state: not sharable.
 */
public class FlushConsolidationHandler implements ChannelHandler {

    /** The default bound on flushes held back during one read burst. */
    public static final int DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES = 256;

    private final int explicitFlushAfterFlushes;
    private final boolean consolidateWhenNoReadInProgress;
    /** Flushes requested and not yet passed on. */
    private int pendingFlushes;
    private boolean readInProgress;
    /** True while a consolidated flush task is queued on the executor. */
    private boolean flushTaskQueued;
    private ChannelHandlerContext ctx;
    private final Runnable flushTask = this::runQueuedFlush;

    /** Holds flushes during read bursts, at most {@link #DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES} of them. */
    public FlushConsolidationHandler() {
        this(DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, false);
    }

    /**
     * Holds flushes during read bursts, at most {@code explicitFlushAfterFlushes} of them.
     *
     * @param explicitFlushAfterFlushes flush after this many held-back flushes (&gt; 0)
     * @throws IllegalArgumentException if {@code explicitFlushAfterFlushes} is not positive
     */
    public FlushConsolidationHandler(int explicitFlushAfterFlushes) {
        this(explicitFlushAfterFlushes, false);
    }

    /**
     * @param explicitFlushAfterFlushes flush after this many held-back flushes (> 0)
     * @param consolidateWhenNoReadInProgress merge flushes outside read bursts too
     */
    public FlushConsolidationHandler(int explicitFlushAfterFlushes, boolean consolidateWhenNoReadInProgress) {
        if (explicitFlushAfterFlushes <= 0) {
            throw new IllegalArgumentException(
                    "explicitFlushAfterFlushes: " + explicitFlushAfterFlushes + " (expected: > 0)");
        }
        this.explicitFlushAfterFlushes = explicitFlushAfterFlushes;
        this.consolidateWhenNoReadInProgress = consolidateWhenNoReadInProgress;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        flushIfPending(ctx);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (readInProgress) {
            if (++pendingFlushes == explicitFlushAfterFlushes) {
                flushNow(ctx);
            }
        } else if (consolidateWhenNoReadInProgress) {
            if (++pendingFlushes == explicitFlushAfterFlushes) {
                flushNow(ctx);
            } else if (!flushTaskQueued) {
                flushTaskQueued = true;
                ctx.executor().execute(flushTask);
            }
        } else {
            flushNow(ctx);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        readInProgress = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // Before passing the event on: handlers after us may flush in it, and should not wait for us.
        readInProgress = false;
        flushIfPending(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        readInProgress = false;
        flushIfPending(ctx);
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, Promise<Void> promise) {
        readInProgress = false;
        flushIfPending(ctx);
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
        readInProgress = false;
        flushIfPending(ctx);
        ctx.close(promise);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            // The buffer is full: holding flushes back now would only stall the channel.
            flushIfPending(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void runQueuedFlush() {
        flushTaskQueued = false;
        if (!readInProgress && !ctx.isRemoved()) {
            flushIfPending(ctx);
        }
    }

    private void flushIfPending(ChannelHandlerContext ctx) {
        if (pendingFlushes > 0) {
            flushNow(ctx);
        }
    }

    private void flushNow(ChannelHandlerContext ctx) {
        pendingFlushes = 0;
        ctx.flush();
    }
}
