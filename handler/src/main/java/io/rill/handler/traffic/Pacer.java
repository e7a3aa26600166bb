package io.rill.handler.traffic;

/**
 * Paces bytes to a rate with a virtual clock: {@code nextFree} is when the link would be free
 * again if every byte reserved so far had gone at exactly the limit. Reserving {@code n} bytes
 * starts them at {@code max(now, nextFree)} and moves {@code nextFree} on by {@code n / rate}.
 * Unlike counting bytes per interval, this needs no timer and keeps the long-run rate exact
 * however the bytes are split; idle time is not saved up, so there is no burst after a pause.
 *
 * <p>Synchronized: a global shaper's pacer is shared by channels on several event loops.
 */
final class Pacer {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** Bytes per second; 0 = unlimited. */
    private long limit;
    /** Ticker time at which the reserved bytes have all gone; meaningful once {@code used}. */
    private long nextFree;
    private boolean used;

    Pacer(long limit) {
        limit(limit);
    }

    synchronized void limit(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("limit: " + bytesPerSecond + " (expected: >= 0, 0 = unlimited)");
        }
        this.limit = bytesPerSecond;
    }

    synchronized long limit() {
        return limit;
    }

    /**
     * Reserves {@code bytes} at time {@code now}; returns how long (ns) they must wait to start,
     * at most {@code maxDelay}: a wait beyond it is cut short, giving up exactness for liveness.
     */
    synchronized long reserve(long bytes, long now, long maxDelay) {
        if (limit == 0 || bytes <= 0) {
            return 0;
        }
        long start = used && nextFree - now > 0 ? nextFree : now;
        used = true;
        if (start - now > maxDelay) {
            start = now + maxDelay;
        }
        nextFree = start + transferNanos(bytes);
        return start - now;
    }

    private long transferNanos(long bytes) {
        return bytes <= Long.MAX_VALUE / NANOS_PER_SECOND
                ? bytes * NANOS_PER_SECOND / limit
                : (long) ((double) bytes / limit * NANOS_PER_SECOND);
    }

    /** How long (ns) from {@code now} until every reserved byte has gone; 0 if already. */
    synchronized long busyFor(long now) {
        return used && limit != 0 ? Math.max(0, nextFree - now) : 0;
    }
}
