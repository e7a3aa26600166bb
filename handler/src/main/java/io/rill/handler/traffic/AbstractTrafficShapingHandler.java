package io.rill.handler.traffic;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.FileRegion;
import io.rill.handler.internal.ChannelSupport;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Limits the bandwidth of reads and writes; the subclasses decide what shares a limit (one
 * channel, or every channel the handler is in).
 *
 * <p><b>Reads</b>: each buffer read reserves its bytes on the read {@link Pacer}; when that
 * puts the channel ahead of its allowance by more than {@value #MIN_WAIT_MILLIS} ms, reading
 * is suspended (auto-read off, explicit {@code read()} requests held back) for exactly that
 * long. The data already read is passed on: only the next reads wait.
 *
 * <p><b>Writes</b>: each buffer or file region written reserves its bytes on the write pacer
 * and is passed on at its turn; until then it waits in a per-channel queue, in order with the
 * messages after it. The queue is bounded: a write that would take it beyond
 * {@code maxPendingBytes} fails with {@link PendingWritesFullException} (the application should
 * pace itself on write futures), and no message waits longer than {@code maxTime}, so a very
 * low limit cannot park data forever. Writes still queued when the channel closes fail with
 * {@link ClosedChannelException} and are released; {@code close} does not wait for them.
 *
 * <p>Times are read from the channel's executor's ticker, so an {@code EmbeddedChannel} test
 * drives pacing with its manual clock. Limits may change at any time; 0 means unlimited.
 */
public abstract class AbstractTrafficShapingHandler implements ChannelHandler {

    /** Waits shorter than this are not worth a timer: they are let through (and stay accounted). */
    static final long MIN_WAIT_MILLIS = 10;
    private static final long MIN_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(MIN_WAIT_MILLIS);

    /** Default interval of the traffic counter's throughput figures. */
    public static final long DEFAULT_CHECK_INTERVAL_MILLIS = 1000;
    /** Default longest wait of a read suspension or a queued write. */
    public static final long DEFAULT_MAX_TIME_MILLIS = 15_000;
    /** Default bound on the bytes queued per channel. */
    public static final long DEFAULT_MAX_PENDING_BYTES = 4L << 20;

    private final Pacer readPacer;
    private final Pacer writePacer;
    private final TrafficCounter counter;
    private final long maxTimeNanos;
    private final long maxPendingBytes;

    /**
     * Sets the limits and bounds shared by both shapers.
     *
     * @param writeLimit          bytes per second written, 0 for unlimited
     * @param readLimit           bytes per second read, 0 for unlimited
     * @param checkIntervalMillis the length of the {@link TrafficCounter}'s intervals, in milliseconds;
     *                            positive
     * @param maxTimeMillis       longest a read suspension or a queued write waits
     * @param maxPendingBytes     most bytes queued per channel waiting for their turn
     * @throws IllegalArgumentException if an interval, time or bound is not positive
     */
    protected AbstractTrafficShapingHandler(long writeLimit, long readLimit, long checkIntervalMillis,
                                            long maxTimeMillis, long maxPendingBytes) {
        if (maxTimeMillis <= 0 || maxPendingBytes <= 0) {
            throw new IllegalArgumentException("maxTime: " + maxTimeMillis + ", maxPendingBytes: "
                    + maxPendingBytes + " (expected: > 0)");
        }
        this.writePacer = new Pacer(writeLimit);
        this.readPacer = new Pacer(readLimit);
        this.counter = new TrafficCounter(checkIntervalMillis);
        this.maxTimeNanos = TimeUnit.MILLISECONDS.toNanos(maxTimeMillis);
        this.maxPendingBytes = maxPendingBytes;
    }

    /** The per-channel state for {@code ctx}'s channel, made on first use. */
    abstract ShapingState state(ChannelHandlerContext ctx);

    /** The per-channel state if there is one, for clean-up; null otherwise. */
    abstract ShapingState existingState(ChannelHandlerContext ctx);

    /**
     * The counter of the traffic through this handler: one channel's, or all channels' for a global shaper.
     *
     * @return the counter; thread-safe
     */
    public TrafficCounter trafficCounter() {
        return counter;
    }

    /**
     * The write limit.
     *
     * @return bytes per second, 0 for unlimited
     */
    public long writeLimit() {
        return writePacer.limit();
    }

    /**
     * The read limit.
     *
     * @return bytes per second, 0 for unlimited
     */
    public long readLimit() {
        return readPacer.limit();
    }

    /**
     * Changes the write limit (bytes per second, 0 = unlimited); queued writes keep their turns.
     *
     * @param bytesPerSecond the new limit; 0 for unlimited
     */
    public void setWriteLimit(long bytesPerSecond) {
        writePacer.limit(bytesPerSecond);
    }

    /**
     * Changes the read limit (bytes per second, 0 = unlimited) from the next read on.
     *
     * @param bytesPerSecond the new limit; 0 for unlimited
     */
    public void setReadLimit(long bytesPerSecond) {
        readPacer.limit(bytesPerSecond);
    }

    /**
     * The size a message counts for: readable bytes of a buffer, the count of a file region, else 0.
     *
     * @param msg an outbound or inbound message
     * @return its size in bytes
     */
    protected long sizeOf(Object msg) {
        if (msg instanceof ByteBuf buf) {
            return buf.readableBytes();
        }
        if (msg instanceof FileRegion region) {
            return region.count();
        }
        return 0;
    }

    private static long now(ChannelHandlerContext ctx) {
        return ChannelSupport.ticker(ctx.executor()).nanoTime();
    }

    // ---------------------------------------------------------------- reads

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        long size = sizeOf(msg);
        if (size > 0) {
            long now = now(ctx);
            counter.bytesRead(size, now);
            readPacer.reserve(size, now, maxTimeNanos);
            long wait = Math.min(readPacer.busyFor(now), maxTimeNanos);
            if (wait > MIN_WAIT_NANOS) {
                state(ctx).suspendReads(wait);
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        ShapingState state = existingState(ctx);
        if (state != null && state.readSuspended) {
            state.readRequested = true;
        } else {
            ctx.read();
        }
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        long size = sizeOf(msg);
        ShapingState state = existingState(ctx);
        boolean queueEmpty = state == null || state.queue.isEmpty();
        if (queueEmpty && (size == 0 || writePacer.limit() == 0)) {
            passOn(ctx, msg, promise, size);
            return;
        }
        if (state == null) {
            state = state(ctx);
        }
        if (!queueEmpty && state.queuedBytes + size > maxPendingBytes) {
            ReferenceCountUtil.safeRelease(msg);
            promise.tryFailure(new PendingWritesFullException("traffic shaping queue of " + ctx.channel()
                    + " holds " + state.queuedBytes + " bytes; " + size + " more would exceed " + maxPendingBytes));
            return;
        }
        long now = now(ctx);
        long delay = writePacer.reserve(size, now, maxTimeNanos);
        if (queueEmpty && delay <= MIN_WAIT_NANOS) {
            passOn(ctx, msg, promise, size);
            return;
        }
        state.enqueue(msg, promise, size, now + delay);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        ShapingState state = existingState(ctx);
        if (state != null && !state.queue.isEmpty()) {
            state.flushRequested = true;
        }
        ctx.flush();
    }

    private void passOn(ChannelHandlerContext ctx, Object msg, Promise<Void> promise, long size) {
        if (size > 0) {
            counter.bytesWritten(size, now(ctx));
        }
        ctx.write(msg, promise);
    }

    // ---------------------------------------------------------------- life cycle

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ShapingState state = existingState(ctx);
        if (state != null) {
            state.discard(new ClosedChannelException());
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        ShapingState state = existingState(ctx);
        if (state == null) {
            return;
        }
        if (ctx.channel().isActive()) {
            // Leaving the pipeline: what waited goes out now, in order, unshaped.
            state.releaseDue(0, true);
            state.resumeReads();
        }
        state.discard(new ClosedChannelException());
    }

    /** One queued write. */
    private record Queued(Object msg, Promise<Void> promise, long size, long sendAt) {
    }

    /** What a shaper keeps per channel: its queue of delayed writes and its read suspension. */
    final class ShapingState {

        private final ChannelHandlerContext ctx;
        private final ArrayDeque<Queued> queue = new ArrayDeque<>();
        private long queuedBytes;
        /** A flush arrived while writes were queued: flush again when they are released. */
        private boolean flushRequested;
        private ScheduledFuture<?> releaseTimer;
        private boolean readSuspended;
        /** A read() arrived while suspended; pass it on at resumption. */
        private boolean readRequested;
        /** Auto-read was on when reads were suspended: turn it back on at resumption. */
        private boolean restoreAutoRead;
        private ScheduledFuture<?> resumeTimer;

        ShapingState(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        void enqueue(Object msg, Promise<Void> promise, long size, long sendAt) {
            queue.add(new Queued(msg, promise, size, sendAt));
            queuedBytes += size;
            if (releaseTimer == null) {
                scheduleRelease(sendAt);
            }
        }

        private void scheduleRelease(long sendAt) {
            long delay = Math.max(0, sendAt - now(ctx));
            releaseTimer = ctx.executor().schedule(this::releaseTimerFired, delay, TimeUnit.NANOSECONDS);
        }

        private void releaseTimerFired() {
            releaseTimer = null;
            releaseDue(now(ctx) + MIN_WAIT_NANOS, false);
        }

        /** Passes on the queued writes due by {@code until} (all if {@code all}), flushes if asked to, re-arms for the rest. */
        void releaseDue(long until, boolean all) {
            boolean released = false;
            for (Queued q; (q = queue.peek()) != null && (all || q.sendAt - until <= 0); ) {
                queue.poll();
                queuedBytes -= q.size;
                passOn(ctx, q.msg, q.promise, q.size);
                released = true;
            }
            if (released && flushRequested) {
                flushRequested = !queue.isEmpty();
                ctx.flush();
            }
            Queued next = queue.peek();
            if (next != null && releaseTimer == null) {
                scheduleRelease(next.sendAt);
            }
        }

        void suspendReads(long waitNanos) {
            if (resumeTimer != null) {
                resumeTimer.cancel(false);
            }
            if (!readSuspended) {
                readSuspended = true;
                ChannelConfig config = ctx.channel().config();
                restoreAutoRead = config.isAutoRead();
                if (restoreAutoRead) {
                    config.setAutoRead(false);
                }
            }
            resumeTimer = ctx.executor().schedule(this::resumeReads, waitNanos, TimeUnit.NANOSECONDS);
        }

        void resumeReads() {
            resumeTimer = null;
            if (!readSuspended) {
                return;
            }
            readSuspended = false;
            if (restoreAutoRead) {
                restoreAutoRead = false;
                ctx.channel().config().setAutoRead(true);
            } else if (readRequested) {
                readRequested = false;
                ctx.read();
            }
        }

        /** Fails and releases whatever is still queued; stops the timers. */
        void discard(Throwable cause) {
            for (Queued q; (q = queue.poll()) != null; ) {
                ReferenceCountUtil.safeRelease(q.msg);
                q.promise.tryFailure(cause);
            }
            queuedBytes = 0;
            if (releaseTimer != null) {
                releaseTimer.cancel(false);
                releaseTimer = null;
            }
            if (resumeTimer != null) {
                resumeTimer.cancel(false);
                resumeTimer = null;
            }
        }

        boolean belongsTo(AbstractTrafficShapingHandler handler) {
            return handler == AbstractTrafficShapingHandler.this;
        }

        /** Bytes waiting in the queue. */
        long queuedBytes() {
            return queuedBytes;
        }
    }
}
