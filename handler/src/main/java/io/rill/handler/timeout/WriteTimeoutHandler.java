package io.rill.handler.timeout;

import java.util.concurrent.TimeUnit;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.internal.ChannelSupport;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.FutureListener;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Closes a channel when a write does not complete within a timeout: fires a
 * {@link WriteTimeoutException} once, then closes. Each write gets its own timer, cancelled
 * when the write completes; the timers still pending are cancelled when the handler leaves
 * the pipeline.
 *
 * <p>Keeps per-channel state: not sharable.
 */
public class WriteTimeoutHandler implements ChannelHandler {

    private static final long MIN_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final long timeoutNanos;
    /** Most recently started pending write; each links to the one started before it. */
    private PendingWrite newest;
    private boolean closed;

    /**
     * Times each write out after {@code timeoutSeconds}.
     *
     * @param timeoutSeconds the time a write may take to complete, in seconds; positive
     * @throws IllegalArgumentException if the timeout is not positive
     */
    public WriteTimeoutHandler(int timeoutSeconds) {
        this(timeoutSeconds, TimeUnit.SECONDS);
    }

    /**
     * Times each write out after {@code timeout} (at least a millisecond).
     *
     * @param timeout the time a write may take to complete; positive
     * @param unit    the unit of {@code timeout}
     * @throws IllegalArgumentException if the timeout is not positive
     */
    public WriteTimeoutHandler(long timeout, TimeUnit unit) {
        if (timeout <= 0) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
        }
        this.timeoutNanos = Math.max(unit.toNanos(timeout), MIN_TIMEOUT_NANOS);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        Promise<Void> listenable = ChannelSupport.listenable(ctx, promise);
        PendingWrite pending = new PendingWrite(ctx, listenable);
        pending.timer = ctx.executor().schedule(pending, timeoutNanos, TimeUnit.NANOSECONDS);
        if (!pending.timer.isDone()) {
            link(pending);
            listenable.addListener(pending);
        }
        ctx.write(msg, listenable);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        for (PendingWrite p = newest; p != null; ) {
            PendingWrite older = p.older;
            p.timer.cancel(false);
            p.older = p.newer = null;
            p = older;
        }
        newest = null;
    }

    /**
     * Fires the exception and closes the channel, once. Override to react differently.
     *
     * @param ctx the context of this handler; called on the event loop
     * @throws Exception any failure; it reaches {@code exceptionCaught}
     */
    protected void writeTimedOut(ChannelHandlerContext ctx) throws Exception {
        if (!closed) {
            closed = true;
            ctx.fireExceptionCaught(new WriteTimeoutException(
                    "write not complete within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
            ctx.close();
        }
    }

    private void link(PendingWrite p) {
        if (newest != null) {
            newest.newer = p;
            p.older = newest;
        }
        newest = p;
    }

    private void unlink(PendingWrite p) {
        if (p.newer != null) {
            p.newer.older = p.older;
        } else if (newest == p) {
            newest = p.older;
        }
        if (p.older != null) {
            p.older.newer = p.newer;
        }
        p.older = p.newer = null;
    }

    /** One write's timer (run when it fires) and completion listener (run when the write completes). */
    private final class PendingWrite implements Runnable, FutureListener<Void> {

        private final ChannelHandlerContext ctx;
        private final Promise<Void> promise;
        private ScheduledFuture<?> timer;
        private PendingWrite older;
        private PendingWrite newer;

        PendingWrite(ChannelHandlerContext ctx, Promise<Void> promise) {
            this.ctx = ctx;
            this.promise = promise;
        }

        @Override
        public void run() {
            unlink(this);
            if (!promise.isDone()) {
                try {
                    writeTimedOut(ctx);
                } catch (Throwable t) {
                    ctx.fireExceptionCaught(t);
                }
            }
        }

        @Override
        public void operationComplete(Future<? extends Void> future) {
            timer.cancel(false);
            unlink(this);
        }
    }
}
