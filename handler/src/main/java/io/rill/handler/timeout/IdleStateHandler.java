package io.rill.handler.timeout;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.FileRegion;
import io.rill.handler.internal.ChannelSupport;
import io.rill.util.concurrent.FutureListener;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;
import io.rill.util.concurrent.Ticker;

/**
 * Fires an {@link IdleStateEvent} when a channel has not read, not written, or neither, for a
 * while. A timeout of zero disables that kind of check.
 *
 * <p>Reading counts from the end of a read burst ({@code channelReadComplete}): while a burst
 * is under way the channel is not reader idle. Writing counts when a write completes, not when
 * it is requested, so a peer that stops reading makes the channel writer idle even though the
 * application keeps writing.
 *
 * <p>With {@code observeOutput}, a write that is still in progress but moving counts as writer
 * activity too: a large buffer going out slowly to a slow peer is not "idle". Progress is seen
 * on the oldest unfinished {@link ByteBuf} (its reader index) or {@link FileRegion} (its
 * transferred count) that passed this handler; messages another handler transforms below this
 * one are invisible to it.
 *
 * <p>Each check runs as a task scheduled on the handler's executor and re-arms itself for the
 * remaining time, so an active channel costs one timer per period, not one per event. The
 * event goes to {@link #channelIdle}, which fires it down the pipeline unless overridden.
 *
 * <p>Keeps per-channel state: not sharable.
 */
public class IdleStateHandler implements ChannelHandler {

    private static final long MIN_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final boolean observeOutput;
    /** Idle thresholds; 0 disables the check. */
    private final long readerIdleNanos;
    private final long writerIdleNanos;
    private final long allIdleNanos;

    private ChannelHandlerContext ctx;
    private Ticker ticker;
    /** 0 = not started, 1 = checks armed, 2 = stopped for good. */
    private int state;
    /** True between a channelRead and the channelReadComplete that ends its burst. */
    private boolean reading;
    private long lastReadTime;
    private long lastWriteTime;
    private boolean firstReaderIdle = true;
    private boolean firstWriterIdle = true;
    private boolean firstAllIdle = true;
    private ScheduledFuture<?> readerCheck;
    private ScheduledFuture<?> writerCheck;
    private ScheduledFuture<?> allCheck;

    /** With observeOutput: messages passed on and not yet completed, oldest first. */
    private ArrayDeque<Object> unfinished;
    /** The oldest unfinished message and its progress at the last look; see {@link #outputMoved()}. */
    private Object observedMessage;
    private long observedProgress;

    private final FutureListener<Void> writeCompleted = f -> wroteNow();

    /** Thresholds in seconds; 0 disables a check. */
    public IdleStateHandler(int readerIdleSeconds, int writerIdleSeconds, int allIdleSeconds) {
        this(readerIdleSeconds, writerIdleSeconds, allIdleSeconds, TimeUnit.SECONDS);
    }

    public IdleStateHandler(long readerIdleTime, long writerIdleTime, long allIdleTime, TimeUnit unit) {
        this(false, readerIdleTime, writerIdleTime, allIdleTime, unit);
    }

    /**
     * @param observeOutput true to count progress of a write still in flight as writer activity
     */
    public IdleStateHandler(boolean observeOutput, long readerIdleTime, long writerIdleTime, long allIdleTime,
                            TimeUnit unit) {
        if (unit == null) {
            throw new NullPointerException("unit");
        }
        this.observeOutput = observeOutput;
        this.readerIdleNanos = threshold("readerIdleTime", readerIdleTime, unit);
        this.writerIdleNanos = threshold("writerIdleTime", writerIdleTime, unit);
        this.allIdleNanos = threshold("allIdleTime", allIdleTime, unit);
    }

    private static long threshold(String name, long time, TimeUnit unit) {
        if (time < 0) {
            throw new IllegalArgumentException(name + ": " + time + " (expected: >= 0)");
        }
        return time == 0 ? 0 : Math.max(unit.toNanos(time), MIN_TIMEOUT_NANOS);
    }

    public long readerIdleTime(TimeUnit unit) {
        return unit.convert(readerIdleNanos, TimeUnit.NANOSECONDS);
    }

    public long writerIdleTime(TimeUnit unit) {
        return unit.convert(writerIdleNanos, TimeUnit.NANOSECONDS);
    }

    public long allIdleTime(TimeUnit unit) {
        return unit.convert(allIdleNanos, TimeUnit.NANOSECONDS);
    }

    // ---------------------------------------------------------------- life cycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            start(ctx);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stop();
        ctx.fireChannelInactive();
    }

    private void start(ChannelHandlerContext ctx) {
        if (state != 0) {
            return;
        }
        state = 1;
        this.ctx = ctx;
        ticker = ChannelSupport.ticker(ctx.executor());
        lastReadTime = lastWriteTime = ticker.nanoTime();
        if (observeOutput) {
            unfinished = new ArrayDeque<>();
        }
        if (readerIdleNanos > 0) {
            readerCheck = schedule(this::checkReader, readerIdleNanos);
        }
        if (writerIdleNanos > 0) {
            writerCheck = schedule(this::checkWriter, writerIdleNanos);
        }
        if (allIdleNanos > 0) {
            allCheck = schedule(this::checkAll, allIdleNanos);
        }
    }

    private void stop() {
        state = 2;
        readerCheck = cancel(readerCheck);
        writerCheck = cancel(writerCheck);
        allCheck = cancel(allCheck);
        unfinished = null;
        observedMessage = null;
    }

    private static ScheduledFuture<?> cancel(ScheduledFuture<?> check) {
        if (check != null) {
            check.cancel(false);
        }
        return null;
    }

    private ScheduledFuture<?> schedule(Runnable check, long delayNanos) {
        return ctx.executor().schedule(check, delayNanos, TimeUnit.NANOSECONDS);
    }

    // ---------------------------------------------------------------- activity

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (readerIdleNanos > 0 || allIdleNanos > 0) {
            reading = true;
            firstReaderIdle = firstAllIdle = true;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if ((readerIdleNanos > 0 || allIdleNanos > 0) && reading) {
            lastReadTime = ticker.nanoTime();
            reading = false;
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        if (state != 1 || (writerIdleNanos == 0 && allIdleNanos == 0)) {
            ctx.write(msg, promise);
            return;
        }
        Promise<Void> listenable = ChannelSupport.listenable(ctx, promise);
        if (unfinished != null) {
            unfinished.add(msg);
            listenable.addListener(f -> finished(msg));
        } else {
            listenable.addListener(writeCompleted);
        }
        ctx.write(msg, listenable);
    }

    private void finished(Object msg) {
        if (unfinished != null) {
            // Completions come in order except for cancelled writes, so this is nearly always the head.
            unfinished.remove(msg);
        }
        wroteNow();
    }

    private void wroteNow() {
        lastWriteTime = ticker.nanoTime();
        firstWriterIdle = firstAllIdle = true;
    }

    // ---------------------------------------------------------------- checks

    private void checkReader() {
        if (state != 1 || !ctx.channel().isOpen()) {
            return;
        }
        long left = reading ? readerIdleNanos : readerIdleNanos - (ticker.nanoTime() - lastReadTime);
        if (left > 0) {
            readerCheck = schedule(this::checkReader, left);
            return;
        }
        readerCheck = schedule(this::checkReader, readerIdleNanos);
        boolean first = firstReaderIdle;
        firstReaderIdle = false;
        fire(IdleStateEvent.of(IdleState.READER_IDLE, first));
    }

    private void checkWriter() {
        if (state != 1 || !ctx.channel().isOpen()) {
            return;
        }
        long left = writerIdleNanos - (ticker.nanoTime() - lastWriteTime);
        if (left > 0) {
            writerCheck = schedule(this::checkWriter, left);
            return;
        }
        writerCheck = schedule(this::checkWriter, writerIdleNanos);
        if (outputMoved()) {
            return;
        }
        boolean first = firstWriterIdle;
        firstWriterIdle = false;
        fire(IdleStateEvent.of(IdleState.WRITER_IDLE, first));
    }

    private void checkAll() {
        if (state != 1 || !ctx.channel().isOpen()) {
            return;
        }
        long last = Math.max(lastReadTime, lastWriteTime);
        long left = reading ? allIdleNanos : allIdleNanos - (ticker.nanoTime() - last);
        if (left > 0) {
            allCheck = schedule(this::checkAll, left);
            return;
        }
        allCheck = schedule(this::checkAll, allIdleNanos);
        if (outputMoved()) {
            return;
        }
        boolean first = firstAllIdle;
        firstAllIdle = false;
        fire(IdleStateEvent.of(IdleState.ALL_IDLE, first));
    }

    /**
     * With observeOutput: true if the oldest unfinished write moved since the last look, which
     * then counts as a write now. A different oldest message is no progress by itself: the one
     * before it completed (already counted) or the queue was empty.
     */
    private boolean outputMoved() {
        if (unfinished == null) {
            return false;
        }
        Object head = unfinished.peek();
        long progress = progressOf(head);
        boolean moved = head != null && head == observedMessage && progress != observedProgress;
        observedMessage = head;
        observedProgress = progress;
        if (moved) {
            wroteNow();
        }
        return moved;
    }

    private static long progressOf(Object msg) {
        if (msg instanceof ByteBuf buf) {
            return buf.readerIndex();
        }
        if (msg instanceof FileRegion region) {
            return region.transferred();
        }
        return 0;
    }

    private void fire(IdleStateEvent evt) {
        try {
            channelIdle(ctx, evt);
        } catch (Throwable t) {
            ctx.fireExceptionCaught(t);
        }
    }

    /** Called when the channel has been idle; fires {@code evt} to the next handler. Override to react here. */
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) throws Exception {
        ctx.fireUserEventTriggered(evt);
    }
}
