package io.rill.util;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets through at most one log line per interval and counts the ones it held back, so that a
 * burst of the same event (hundreds of connections closed in one attack, a logging backend that
 * fails on every call) costs one line a second instead of one per event: a line costs the thread
 * that writes it, often an event loop, up to milliseconds. Thread-safe; the first line always
 * passes.
 */
public final class LogRateLimit {

    private final long intervalNanos;
    /** When the last line was let through, or Long.MIN_VALUE before the first. */
    private final AtomicLong last = new AtomicLong(Long.MIN_VALUE);
    /** Lines held back since the last one let through. */
    private final AtomicLong heldBack = new AtomicLong();

    /**
     * A limit of one line per {@code intervalNanos}.
     *
     * @param intervalNanos at least 1
     */
    public LogRateLimit(long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("intervalNanos: " + intervalNanos + " (expected: > 0)");
        }
        this.intervalNanos = intervalNanos;
    }

    /**
     * Asks to log one line at {@code nowNanos}.
     *
     * @param nowNanos the caller's clock ({@code System.nanoTime()}, or an event loop's ticker)
     * @return -1 if the line is to be dropped (it is counted), else how many were dropped since the last line let through
     */
    public long tryLog(long nowNanos) {
        long previous = last.get();
        if (previous != Long.MIN_VALUE && nowNanos - previous < intervalNanos || !last.compareAndSet(previous, nowNanos)) {
            heldBack.incrementAndGet();
            return -1;
        }
        return heldBack.getAndSet(0);
    }
}
