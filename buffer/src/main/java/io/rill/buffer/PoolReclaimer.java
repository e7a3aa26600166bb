package io.rill.buffer;

import io.rill.util.InternalLogger;
import io.rill.util.concurrent.GlobalEventExecutor;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs {@link PooledByteBufAllocator#reclaimIdleMemory()} every interval on the
 * {@link GlobalEventExecutor}, for as long as the allocator has thread caches or memory; with
 * neither it stops, so an unused allocator costs no wake-ups, and the next cache made starts it
 * again. A pass is a few lock-protected list checks per arena and at most one task per event
 * loop, so one shared thread is plenty.
 *
 * <p>The allocator is held weakly: an allocator nobody uses any more is collected with its
 * memory instead of being kept alive by its own housekeeping.
 */
final class PoolReclaimer implements Runnable {

    private static final InternalLogger LOG = InternalLogger.get(PoolReclaimer.class);

    private final WeakReference<PooledByteBufAllocator> allocator;
    private final long intervalMillis;
    /** True while a pass is scheduled or running. */
    private final AtomicBoolean scheduled = new AtomicBoolean();

    /** @param intervalMillis time between passes; 0 never schedules one */
    PoolReclaimer(PooledByteBufAllocator allocator, long intervalMillis) {
        this.allocator = new WeakReference<>(allocator);
        this.intervalMillis = intervalMillis;
    }

    /** Schedules the next pass unless one is already scheduled. Cheap: called for every new thread cache. */
    void start() {
        if (intervalMillis > 0 && !scheduled.get() && scheduled.compareAndSet(false, true)) {
            schedule();
        }
    }

    private void schedule() {
        GlobalEventExecutor.INSTANCE.schedule(this, intervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void run() {
        PooledByteBufAllocator alloc = allocator.get();
        if (alloc == null) {
            return;
        }
        try {
            alloc.reclaimIdleMemory();
        } catch (RuntimeException e) {
            LOG.warn("Giving back idle pooled memory failed; trying again in " + intervalMillis + " ms", e);
        }
        if (alloc.holdsMemoryOrCaches()) {
            schedule();
            return;
        }
        scheduled.set(false);
        // A cache made after the check above saw scheduled == true and left the start to us.
        if (alloc.holdsMemoryOrCaches() && scheduled.compareAndSet(false, true)) {
            schedule();
        }
    }
}
