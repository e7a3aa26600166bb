package io.rill.buffer;

import io.rill.util.InternalLogger;
import io.rill.util.RillProperties;
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

    private static final long GC_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final WeakReference<PooledByteBufAllocator> allocator;
    /** Direct bytes the pool had returned when it last asked for a collection. */
    private long directReturnedAtLastGc;
    /** When it last asked (System.nanoTime), or Long.MIN_VALUE. */
    private long lastGcNanos = Long.MIN_VALUE;
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

    /**
     * Where freed direct chunks wait for the GC to give their memory back, asks for a collection
     * once enough of them did (see {@link RillProperties#ALLOCATOR_GC_AFTER_DIRECT_RELEASE}).
     */
    private void collectFreedDirectMemory(PooledByteBufAllocatorMetric metric) {
        long threshold = RillProperties.ALLOCATOR_GC_AFTER_DIRECT_RELEASE;
        if (threshold == 0 || metric.directMemoryReleasedPromptly()) {
            return;
        }
        long returned = metric.returnedDirectMemory();
        long now = System.nanoTime();
        if (returned - directReturnedAtLastGc >= threshold
                && (lastGcNanos == Long.MIN_VALUE || now - lastGcNanos >= GC_INTERVAL_NANOS)) {
            LOG.debug("Freed {} bytes of pooled direct memory; asking for a collection so the JDK gives it back",
                    returned - directReturnedAtLastGc);
            directReturnedAtLastGc = returned;
            lastGcNanos = now;
            System.gc();
        }
    }

    @Override
    public void run() {
        PooledByteBufAllocator alloc = allocator.get();
        if (alloc == null) {
            return;
        }
        try {
            alloc.reclaimIdleMemory();
            collectFreedDirectMemory(alloc.metric());
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
