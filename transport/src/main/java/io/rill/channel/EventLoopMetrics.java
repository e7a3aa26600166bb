package io.rill.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What one {@link SingleThreadIoEventLoop} is doing: tasks waiting, time spent running tasks,
 * I/O readiness events handled, and its {@linkplain #channels() channels}. Plain getters, readable
 * from any thread; take two readings and divide the differences by the time between them for
 * rates (tasks per second, the share of time in tasks).
 *
 * <p>Time in I/O is not reported apart from time waiting for it: the pollers hand readiness to
 * the channels from inside their wait call (NIO's {@code Selector.select(Consumer, long)}), so the
 * two cannot be told apart without a clock read per event. {@link #ioEvents()} counts the work instead.
 *
 * <p>Get one from {@link SingleThreadIoEventLoop#metrics()} or, for every loop of a group,
 * {@link MultiThreadIoEventLoopGroup#metrics()}.
 */
public final class EventLoopMetrics {

    private static final VarHandle TASK_NANOS;
    private static final VarHandle IO_EVENTS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
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

    /** {@return nanoseconds the loop spent running tasks, queued and scheduled, since it started} */
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

    /** Loop thread only. */
    void addTaskNanos(long nanos) {
        TASK_NANOS.setOpaque(this, (long) TASK_NANOS.getOpaque(this) + nanos);
    }

    /** Loop thread only. */
    void addIoEvents(int events) {
        if (events > 0) {
            IO_EVENTS.setOpaque(this, (long) IO_EVENTS.getOpaque(this) + events);
        }
    }

    @Override
    public String toString() {
        return "EventLoopMetrics(" + name() + ", pending tasks: " + pendingTasks() + ", task ns: " + taskNanos()
                + ", I/O events: " + ioEvents() + ", " + channels + ')';
    }
}
