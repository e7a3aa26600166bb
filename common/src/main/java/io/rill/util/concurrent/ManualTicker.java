package io.rill.util.concurrent;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Ticker} that moves only when {@link #advance} is called, for deterministic tests of
 * scheduling, timeouts and quiet periods. Threads parked until a deadline are woken when time
 * reaches it.
 */
public final class ManualTicker implements Ticker {

    private final AtomicLong now = new AtomicLong();
    /** Threads in parkUntil, with their deadline. */
    private final Map<Thread, Long> sleepers = new ConcurrentHashMap<>();

    /** A ticker standing at time 0 until it is advanced. */
    public ManualTicker() {
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    /**
     * Moves time forward and wakes every thread whose deadline has come.
     *
     * @param amount how far to move
     * @param unit the unit of {@code amount}
     */
    public void advance(long amount, TimeUnit unit) {
        if (amount < 0) {
            throw new IllegalArgumentException("amount: " + amount + " (expected: >= 0)");
        }
        long t = now.addAndGet(unit.toNanos(amount));
        sleepers.forEach((thread, deadline) -> {
            if (deadline - t <= 0) {
                LockSupport.unpark(thread);
            }
        });
    }

    @Override
    public void parkUntil(long deadlineNanos) {
        Thread self = Thread.currentThread();
        sleepers.put(self, deadlineNanos);
        try {
            // Re-check after registering: advance() may have run in between.
            if (deadlineNanos - now.get() > 0) {
                LockSupport.park(this);
            }
        } finally {
            sleepers.remove(self);
        }
    }
}
