package io.rill.handler.timeout;

import java.util.ArrayDeque;
import java.util.Iterator;
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

    private static final IdleState[] KINDS = IdleState.values();

    private final boolean observeOutput;
    /** Idle thresholds, indexed by {@link IdleState#ordinal()}; 0 disables that check. */
    private final long[] thresholds = new long[3];
    /** The check task of each kind, made once; each re-arms itself. */
    private final Runnable[] checkTasks = new Runnable[3];

    private ChannelHandlerContext ctx;
    private Ticker ticker;
    /** 0 = not started, 1 = checks armed, 2 = stopped for good. */
    private int state;
    /** True between a channelRead and the channelReadComplete that ends its burst. */
    private boolean reading;
    private long lastReadTime;
    private long lastWriteTime;
    /** Per kind: the next event is the first of an idle stretch. */
    private final boolean[] first = {true, true, true};
    /** Per kind: the armed check, or null. */
    private final ScheduledFuture<?>[] armed = new ScheduledFuture<?>[3];

    /** With observeOutput: messages passed on and not yet completed, oldest first. */
    private ArrayDeque<Object> unfinished;
    /** The oldest unfinished message and its progress at the last look; see {@link #outputMoved()}. */
    private Object observedMessage;
    private long observedProgress;

    private final FutureListener<Void> writeCompleted = f -> wroteNow();

    /**
     * Thresholds in seconds; 0 disables a check.
     *
     * @param readerIdleSeconds fire {@code READER_IDLE} after this long without a read; 0 for never
     * @param writerIdleSeconds fire {@code WRITER_IDLE} after this long without a completed write; 0 for
     *                          never
     * @param allIdleSeconds    fire {@code ALL_IDLE} after this long without either; 0 for never
     * @throws IllegalArgumentException if a threshold is negative
     */
    public IdleStateHandler(int readerIdleSeconds, int writerIdleSeconds, int allIdleSeconds) {
        this(readerIdleSeconds, writerIdleSeconds, allIdleSeconds, TimeUnit.SECONDS);
    }

    /**
     * Thresholds in {@code unit}; 0 disables a check. Output in progress is not observed.
     *
     * @param readerIdleTime fire {@code READER_IDLE} after this long without a read; 0 for never
     * @param writerIdleTime fire {@code WRITER_IDLE} after this long without a completed write; 0 for never
     * @param allIdleTime    fire {@code ALL_IDLE} after this long without either; 0 for never
     * @param unit           the unit of the three thresholds
     * @throws IllegalArgumentException if a threshold is negative
     */
    public IdleStateHandler(long readerIdleTime, long writerIdleTime, long allIdleTime, TimeUnit unit) {
        this(false, readerIdleTime, writerIdleTime, allIdleTime, unit);
    }

    /**
     * Thresholds in {@code unit}; 0 disables a check.
     *
     * @param observeOutput  true to count progress of a write still in flight as writer activity
     * @param readerIdleTime fire {@code READER_IDLE} after this long without a read; 0 for never
     * @param writerIdleTime fire {@code WRITER_IDLE} after this long without writer activity; 0 for never
     * @param allIdleTime    fire {@code ALL_IDLE} after this long without either; 0 for never
     * @param unit           the unit of the three thresholds
     * @throws IllegalArgumentException if a threshold is negative
     * @throws NullPointerException if {@code unit} is null
     */
    public IdleStateHandler(boolean observeOutput, long readerIdleTime, long writerIdleTime, long allIdleTime,
                            TimeUnit unit) {
        if (unit == null) {
            throw new NullPointerException("unit");
        }
        this.observeOutput = observeOutput;
        thresholds[IdleState.READER_IDLE.ordinal()] = threshold("readerIdleTime", readerIdleTime, unit);
        thresholds[IdleState.WRITER_IDLE.ordinal()] = threshold("writerIdleTime", writerIdleTime, unit);
        thresholds[IdleState.ALL_IDLE.ordinal()] = threshold("allIdleTime", allIdleTime, unit);
        for (IdleState kind : KINDS) {
            checkTasks[kind.ordinal()] = () -> check(kind);
        }
    }

    private static long threshold(String name, long time, TimeUnit unit) {
        if (time < 0) {
            throw new IllegalArgumentException(name + ": " + time + " (expected: >= 0)");
        }
        return time == 0 ? 0 : Math.max(unit.toNanos(time), MIN_TIMEOUT_NANOS);
    }

    /**
     * The reader-idle threshold (thresholds under a millisecond are raised to one).
     *
     * @param unit the unit of the result
     * @return the threshold; 0 if the check is off
     */
    public long readerIdleTime(TimeUnit unit) {
        return unit.convert(thresholds[IdleState.READER_IDLE.ordinal()], TimeUnit.NANOSECONDS);
    }

    /**
     * The writer-idle threshold (thresholds under a millisecond are raised to one).
     *
     * @param unit the unit of the result
     * @return the threshold; 0 if the check is off
     */
    public long writerIdleTime(TimeUnit unit) {
        return unit.convert(thresholds[IdleState.WRITER_IDLE.ordinal()], TimeUnit.NANOSECONDS);
    }

    /**
     * The all-idle threshold (thresholds under a millisecond are raised to one).
     *
     * @param unit the unit of the result
     * @return the threshold; 0 if the check is off
     */
    public long allIdleTime(TimeUnit unit) {
        return unit.convert(thresholds[IdleState.ALL_IDLE.ordinal()], TimeUnit.NANOSECONDS);
    }

    /** True if reads matter to some check (reader or all idle). */
    private boolean watchesReads() {
        return thresholds[IdleState.READER_IDLE.ordinal()] > 0 || thresholds[IdleState.ALL_IDLE.ordinal()] > 0;
    }

    /** True if writes matter to some check (writer or all idle). */
    private boolean watchesWrites() {
        return thresholds[IdleState.WRITER_IDLE.ordinal()] > 0 || thresholds[IdleState.ALL_IDLE.ordinal()] > 0;
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
        for (IdleState kind : KINDS) {
            if (thresholds[kind.ordinal()] > 0) {
                arm(kind, thresholds[kind.ordinal()]);
            }
        }
    }

    private void stop() {
        state = 2;
        for (int i = 0; i < armed.length; i++) {
            if (armed[i] != null) {
                armed[i].cancel(false);
                armed[i] = null;
            }
        }
        unfinished = null;
        observedMessage = null;
    }

    private void arm(IdleState kind, long delayNanos) {
        armed[kind.ordinal()] = ctx.executor().schedule(checkTasks[kind.ordinal()], delayNanos, TimeUnit.NANOSECONDS);
    }

    // ---------------------------------------------------------------- activity

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (state == 1 && watchesReads()) {
            reading = true;
            first[IdleState.READER_IDLE.ordinal()] = first[IdleState.ALL_IDLE.ordinal()] = true;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (reading) {
            lastReadTime = ticker.nanoTime();
            reading = false;
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        if (state != 1 || !watchesWrites()) {
            ctx.write(msg, promise);
            return;
        }
        Promise<Void> listenable = ChannelSupport.listenable(ctx, promise);
        if (unfinished != null) {
            if (unfinished.isEmpty()) {
                observe(msg);
            }
            unfinished.add(msg);
            listenable.addListener(f -> finished(msg));
        } else {
            listenable.addListener(writeCompleted);
        }
        ctx.write(msg, listenable);
    }

    private void finished(Object msg) {
        if (unfinished != null) {
            // By identity (buffers compare by content). Completions come in order except for
            // cancelled writes, so this is nearly always the head.
            for (Iterator<Object> it = unfinished.iterator(); it.hasNext(); ) {
                if (it.next() == msg) {
                    it.remove();
                    break;
                }
            }
            observe(unfinished.peek());
        }
        wroteNow();
    }

    private void wroteNow() {
        lastWriteTime = ticker.nanoTime();
        first[IdleState.WRITER_IDLE.ordinal()] = first[IdleState.ALL_IDLE.ordinal()] = true;
    }

    // ---------------------------------------------------------------- checks

    /**
     * Runs when a check of {@code kind} falls due: if the channel was active since, re-arms for
     * the time left; otherwise re-arms for a full period and fires the event. A read burst in
     * progress keeps the reader and all-idle checks quiet; observed output progress, the
     * writer and all-idle ones.
     */
    private void check(IdleState kind) {
        int k = kind.ordinal();
        armed[k] = null;
        if (state != 1 || !ctx.channel().isOpen()) {
            return;
        }
        long threshold = thresholds[k];
        long last = switch (kind) {
            case READER_IDLE -> lastReadTime;
            case WRITER_IDLE -> lastWriteTime;
            case ALL_IDLE -> Math.max(lastReadTime, lastWriteTime);
        };
        boolean readBusy = reading && kind != IdleState.WRITER_IDLE;
        long left = readBusy ? threshold : threshold - (ticker.nanoTime() - last);
        if (left > 0) {
            arm(kind, left);
            return;
        }
        arm(kind, threshold);
        if (kind != IdleState.READER_IDLE && outputMoved()) {
            return;
        }
        boolean firstOfStretch = first[k];
        first[k] = false;
        fire(IdleStateEvent.of(kind, firstOfStretch));
    }

    /**
     * With observeOutput: true if the oldest unfinished write moved since the baseline, which
     * then counts as a write now. The baseline is taken at each look, when a write completes
     * and when one is queued behind nothing, so it always describes the current oldest write.
     */
    private boolean outputMoved() {
        if (unfinished == null) {
            return false;
        }
        Object head = unfinished.peek();
        boolean moved = head != null && head == observedMessage && progressOf(head) != observedProgress;
        observe(head);
        if (moved) {
            wroteNow();
        }
        return moved;
    }

    /** Takes {@code head} (the oldest unfinished write, or null) and its progress as the baseline. */
    private void observe(Object head) {
        observedMessage = head;
        observedProgress = progressOf(head);
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

    /**
     * Called when the channel has been idle; fires {@code evt} to the next handler. Override to react here.
     *
     * @param ctx the context of this handler; called on the event loop
     * @param evt which kind of idleness, and whether it is the first of its stretch
     * @throws Exception any failure; it reaches {@code exceptionCaught}
     */
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) throws Exception {
        ctx.fireUserEventTriggered(evt);
    }
}
