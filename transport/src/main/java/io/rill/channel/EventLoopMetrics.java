package io.rill.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What one {@link SingleThreadIoEventLoop} is doing: tasks waiting, time busy and time in tasks,
 * I/O readiness events handled, and its {@linkplain #channels() channels}. Plain getters, readable
 * from any thread; take two readings and divide the differences by the time between them for
 * rates. Between two readings:
 * <ul>
 *   <li>busy / elapsed is how loaded the loop is (near 1: it is the bottleneck);</li>
 *   <li>(busy - task) / busy is its I/O ratio: the share of its work spent handling sockets
 *       (reading, decoding, handlers, writing) rather than running tasks.</li>
 * </ul>
 * Busy time is the loop's time minus what its I/O handler reported waiting for readiness
 * ({@link IoHandlerContext#waited}); the clock is read twice per turn of the loop.
 *
 * <p>Get one from {@link SingleThreadIoEventLoop#metrics()} or, for every loop of a group,
 * {@link MultiThreadIoEventLoopGroup#metrics()}.
 */
public final class EventLoopMetrics {

    private static final VarHandle BUSY_NANOS;
    private static final VarHandle TASK_NANOS;
    private static final VarHandle IO_EVENTS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BUSY_NANOS = lookup.findVarHandle(EventLoopMetrics.class, "busyNanos", long.class);
            TASK_NANOS = lookup.findVarHandle(EventLoopMetrics.class, "taskNanos", long.class);
            IO_EVENTS = lookup.findVarHandle(EventLoopMetrics.class, "ioEvents", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SingleThreadIoEventLoop loop;
    private final ChannelMetrics channels = new ChannelMetrics();
    /** Written by the loop thread only (opaque: no fence on the loop's turn), read by anyone. */
    @SuppressWarnings("unused")
    private long busyNanos;
    /** Written by the loop thread only, like {@link #busyNanos}. */
    @SuppressWarnings("unused")
    private long taskNanos;
    /** Written by the loop thread only, like {@link #taskNanos}. */
    @SuppressWarnings("unused")
    private long ioEvents;

    EventLoopMetrics(SingleThreadIoEventLoop loop) {
        this.loop = loop;
    }

    /** {@return the loop's name (its thread's, once started)}, a label for the figures */
    public String name() {
        return loop.toString();
    }

    /** {@return tasks queued and not yet run} Approximate while other threads submit. */
    public int pendingTasks() {
        return loop.pendingTasks();
    }

    /** {@return nanoseconds the loop spent not waiting for I/O since it started: handling I/O and running tasks} */
    public long busyNanos() {
        return (long) BUSY_NANOS.getOpaque(this);
    }

    /** {@return nanoseconds the loop spent running tasks, queued and scheduled, since it started} Part of the busy time. */
    public long taskNanos() {
        return (long) TASK_NANOS.getOpaque(this);
    }

    /** {@return readiness events (a socket readable or writable, an accept) the loop's I/O handler processed} */
    public long ioEvents() {
        return (long) IO_EVENTS.getOpaque(this);
    }

    /** {@return the counts of the channels on this loop} */
    public ChannelMetrics channels() {
        return channels;
    }

    /** One turn of the loop: {@code busy} nanoseconds not waiting, {@code tasks} of them in tasks. Loop thread only. */
    void addTurn(long busy, long tasks) {
        if (busy > 0) {
            BUSY_NANOS.setOpaque(this, (long) BUSY_NANOS.getOpaque(this) + busy);
        }
        if (tasks > 0) {
            TASK_NANOS.setOpaque(this, (long) TASK_NANOS.getOpaque(this) + tasks);
        }
    }

    /** Loop thread only. */
    void addIoEvents(int events) {
        if (events > 0) {
            IO_EVENTS.setOpaque(this, (long) IO_EVENTS.getOpaque(this) + events);
        }
    }

    @Override
    public String toString() {
        return "EventLoopMetrics(" + name() + ", pending tasks: " + pendingTasks() + ", busy ns: " + busyNanos() + ", task ns: " + taskNanos()
                + ", I/O events: " + ioEvents() + ", " + channels + ')';
    }
}
