package io.rill.handler.traffic;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes read and written through a traffic shaping handler: totals since creation, and the
 * throughput of the last complete check interval. Intervals roll over lazily, when traffic
 * arrives after one has ended, so an idle counter costs nothing (its last throughput then
 * describes the last interval that saw traffic).
 *
 * <p>Thread-safe: a global shaper's counter is fed by channels on several event loops.
 */
public final class TrafficCounter {

    private final long checkIntervalNanos;
    private final AtomicLong cumulativeRead = new AtomicLong();
    private final AtomicLong cumulativeWritten = new AtomicLong();
    private final AtomicLong intervalRead = new AtomicLong();
    private final AtomicLong intervalWritten = new AtomicLong();
    private volatile long lastReadThroughput;
    private volatile long lastWriteThroughput;
    /** Ticker time the current interval started; guarded by this. */
    private long intervalStart;
    private boolean started;

    TrafficCounter(long checkIntervalMillis) {
        if (checkIntervalMillis <= 0) {
            throw new IllegalArgumentException("checkInterval: " + checkIntervalMillis + " (expected: > 0)");
        }
        this.checkIntervalNanos = TimeUnit.MILLISECONDS.toNanos(checkIntervalMillis);
    }

    void bytesRead(long bytes, long now) {
        cumulativeRead.addAndGet(bytes);
        intervalRead.addAndGet(bytes);
        rollIfDue(now);
    }

    void bytesWritten(long bytes, long now) {
        cumulativeWritten.addAndGet(bytes);
        intervalWritten.addAndGet(bytes);
        rollIfDue(now);
    }

    private synchronized void rollIfDue(long now) {
        if (!started) {
            started = true;
            intervalStart = now;
            return;
        }
        long elapsed = now - intervalStart;
        if (elapsed >= checkIntervalNanos) {
            lastReadThroughput = intervalRead.getAndSet(0) * 1_000_000_000L / elapsed;
            lastWriteThroughput = intervalWritten.getAndSet(0) * 1_000_000_000L / elapsed;
            intervalStart = now;
        }
    }

    /**
     * The length of a check interval.
     *
     * @param unit the unit of the result
     * @return the interval
     */
    public long checkInterval(TimeUnit unit) {
        return unit.convert(checkIntervalNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Bytes read since the counter was created.
     *
     * @return the total bytes read
     */
    public long cumulativeReadBytes() {
        return cumulativeRead.get();
    }

    /**
     * Bytes written (passed on towards the transport) since the counter was created.
     *
     * @return the total bytes written
     */
    public long cumulativeWrittenBytes() {
        return cumulativeWritten.get();
    }

    /**
     * Bytes read in the current interval so far.
     *
     * @return the bytes read in the current interval
     */
    public long currentReadBytes() {
        return intervalRead.get();
    }

    /**
     * Bytes written in the current interval so far.
     *
     * @return the bytes written in the current interval
     */
    public long currentWrittenBytes() {
        return intervalWritten.get();
    }

    /**
     * Bytes per second read during the last complete interval.
     *
     * @return the read throughput, in bytes per second
     */
    public long lastReadThroughput() {
        return lastReadThroughput;
    }

    /**
     * Bytes per second written during the last complete interval.
     *
     * @return the write throughput, in bytes per second
     */
    public long lastWriteThroughput() {
        return lastWriteThroughput;
    }

    @Override
    public String toString() {
        return "TrafficCounter(read: " + cumulativeRead.get() + " B, " + lastReadThroughput + " B/s; written: "
                + cumulativeWritten.get() + " B, " + lastWriteThroughput + " B/s)";
    }
}
