package io.rill.channel;

/** What an {@link IoHandler} may ask its event loop while it runs. */
public interface IoHandlerContext {

    /** {@return true if the handler may block waiting for I/O: no task is queued or due} */
    boolean canBlock();

    /**
     * {@return the nanoseconds until the next scheduled task is due (0 if overdue), or {@link Long#MAX_VALUE} if
     * none}
     */
    long delayNanos();

    /**
     * Tells the loop how long this turn waited for I/O (blocked in {@code select}, {@code epoll_wait},
     * a park), so that its busy time ({@link EventLoopMetrics#busyNanos()}) leaves the wait out. A
     * handler calls it after a wait that may have blocked; one that never blocks need not.
     *
     * @param nanos the time spent waiting, from the wait's start to its return (or to the first ready handle)
     */
    default void waited(long nanos) {
    }
}
