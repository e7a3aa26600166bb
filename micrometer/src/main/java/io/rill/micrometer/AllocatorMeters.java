package io.rill.micrometer;

import java.util.List;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.buffer.PooledByteBufAllocatorMetric;
import io.rill.buffer.pool.PoolArena;

/**
 * Binds a {@link PooledByteBufAllocator}'s figures to a {@link MeterRegistry}, per arena (tags
 * {@code memory=heap|direct} and {@code arena=0..n-1}, plus the tags given here):
 * <ul>
 *   <li>{@code rill.allocator.arena.used} (gauge, bytes): memory the arena holds, its chunks
 *       plus live huge allocations;</li>
 *   <li>{@code rill.allocator.arena.pinned} (gauge, bytes): of that, what buffers and thread
 *       caches hold; the rest is free for reuse;</li>
 *   <li>{@code rill.allocator.arena.chunks} (gauge): chunks held, empty ones included;</li>
 *   <li>{@code rill.allocator.arena.chunks.freed} (counter): chunks given back after idling.</li>
 * </ul>
 * and for the whole allocator {@code rill.allocator.thread.caches} (gauge) and
 * {@code rill.allocator.cache.hits} / {@code .misses} (counters). Read when the registry polls.
 */
public final class AllocatorMeters implements MeterBinder {

    private final PooledByteBufAllocator allocator;
    private final Tags tags;

    /**
     * @param allocator the allocator to watch, often {@link PooledByteBufAllocator#DEFAULT}
     * @param tags      added to every meter
     */
    public AllocatorMeters(PooledByteBufAllocator allocator, Tag... tags) {
        this.allocator = allocator;
        this.tags = Tags.of(tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        PooledByteBufAllocatorMetric metric = allocator.metric();
        bindArenas(registry, metric.heapArenas(), "heap");
        bindArenas(registry, metric.directArenas(), "direct");
        Gauge.builder("rill.allocator.thread.caches", metric, PooledByteBufAllocatorMetric::numThreadLocalCaches)
                .tags(tags).description("Threads with a cache of pooled regions").register(registry);
        FunctionCounter.builder("rill.allocator.cache.hits", metric, PooledByteBufAllocatorMetric::cacheHits)
                .tags(tags).description("Allocations served from a thread cache").register(registry);
        FunctionCounter.builder("rill.allocator.cache.misses", metric, PooledByteBufAllocatorMetric::cacheMisses)
                .tags(tags).description("Allocations that went to an arena").register(registry);
    }

    private void bindArenas(MeterRegistry registry, List<? extends PoolArena<?>> arenas, String memory) {
        for (int i = 0; i < arenas.size(); i++) {
            PoolArena<?> arena = arenas.get(i);
            Tags arenaTags = tags.and("memory", memory, "arena", Integer.toString(i));
            Gauge.builder("rill.allocator.arena.used", arena, PoolArena::usedMemory)
                    .tags(arenaTags).baseUnit(BaseUnits.BYTES).description("Memory the arena holds")
                    .register(registry);
            Gauge.builder("rill.allocator.arena.pinned", arena, PoolArena::pinnedMemory)
                    .tags(arenaTags).baseUnit(BaseUnits.BYTES).description("Memory held by buffers and thread caches")
                    .register(registry);
            Gauge.builder("rill.allocator.arena.chunks", arena, PoolArena::numChunks)
                    .tags(arenaTags).description("Chunks the arena holds, empty ones included").register(registry);
            FunctionCounter.builder("rill.allocator.arena.chunks.freed", arena, PoolArena::numChunksFreed)
                    .tags(arenaTags).description("Chunks given back after idling").register(registry);
        }
    }
}
