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
}
