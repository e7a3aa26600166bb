package io.rill.util.concurrent;

import java.util.concurrent.locks.LockSupport;

/**
 * The clock of an executor: scheduled deadlines and quiet periods are measured with it, and the
 * executor waits for a deadline through {@link #parkUntil(long)}. {@link ManualTicker} replaces it
 * in tests so time only moves when the test says so.
 */
public interface Ticker {

    /** {@return the JVM's monotonic clock, {@link System#nanoTime()}} */
    static Ticker systemTicker() {
        return System::nanoTime;
    }

    /** {@return the current time in nanoseconds} Only differences between two readings mean anything. */
    long nanoTime();

    /**
     * Blocks the calling thread until this ticker reaches {@code deadlineNanos}, until the thread is
     * unparked ({@link LockSupport#unpark}), or spuriously. Callers re-check their condition.
     *
     * @param deadlineNanos the time on this ticker to wake up at
     */
    default void parkUntil(long deadlineNanos) {
        long delay = deadlineNanos - nanoTime();
        if (delay > 0) {
            LockSupport.parkNanos(this, delay);
        }
    }
}
