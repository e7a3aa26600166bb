package io.rill.util;

import java.util.Locale;

/**
 * Every tuning knob of Rill, read once from system properties, each with its default and the
 * reason for it. No other class reads a {@code rill.*} system property.
 *
 * <p>Values are read when this class initialises, so a property must be set before Rill is
 * first used (on the command line, or before any Rill class loads). Unparsable values log a
 * warning and fall back to the default (see {@link SystemPropertyUtil}).
 *
 * <p>Layout: one section per concern, each opened by a {@code // --- name} line. Sections for
 * {@code common} come first; other modules append their own section at the END of the class,
 * so concurrent additions never touch the same lines.
 */
public final class RillProperties {

    // --- executors

    /**
     * {@code rill.eventLoopThreads}: threads of an event loop group created with 0 threads.
     * Default: twice the available processors, so a loop blocked briefly (a GC, a slow handler)
     * leaves another per core to run.
     */
    public static final int EVENT_LOOP_THREADS =
            Math.max(1, SystemPropertyUtil.getInt("rill.eventLoopThreads", Runtime.getRuntime().availableProcessors() * 2));

    /**
     * {@code rill.eventExecutor.maxPendingTasks}: bound of each executor's task queue; beyond it
     * tasks are rejected. Default 4,194,304: far above any healthy backlog, yet it turns a runaway
     * producer into a RejectedExecutionException instead of an OutOfMemoryError.
     */
    public static final int MAX_PENDING_TASKS =
            Math.max(16, SystemPropertyUtil.getInt("rill.eventExecutor.maxPendingTasks", 4 * 1024 * 1024));

    /**
     * {@code rill.eventLoop.taskQuantumMicros}: longest stretch an I/O event loop spends running
     * tasks before it polls its sockets again. Default 1000 µs: a poll costs about a microsecond,
     * so this bounds the overhead near 0.1% while keeping socket latency under a task flood at ~1 ms.
     */
    public static final long EVENT_LOOP_TASK_QUANTUM_NANOS =
            1000L * Math.max(10, SystemPropertyUtil.getLong("rill.eventLoop.taskQuantumMicros", 1000L));

    /**
     * {@code rill.channel.readBurstQuantumMicros}: longest stretch one channel's read burst takes
     * before it yields to the other channels on its loop, even when MAX_MESSAGES_PER_READ would let
     * it read on. Default 1000 µs: a connection whose bytes are costly to handle (a flood of small
     * HTTP/2 streams, say) then holds its loop for about a millisecond per turn instead of 16 full
     * reads, and the rest of its data is read on the loop's next turn.
     */
    public static final long READ_BURST_QUANTUM_NANOS =
            1000L * Math.max(10, SystemPropertyUtil.getLong("rill.channel.readBurstQuantumMicros", 1000L));

    private RillProperties() {
    }

    // --- leak detection

    /**
     * {@code rill.leakDetection.level}, default {@code SIMPLE}: how hard
     * {@link ResourceLeakDetector} looks for resources released too late or never. SIMPLE samples
     * a few objects and says only that something leaked, cheap enough for production; ADVANCED
     * adds where the object was accessed; PARANOID tracks every object (tests run with it).
     * Case-insensitive.
     */
    public static final ResourceLeakDetector.Level LEAK_DETECTION_LEVEL =
            parseLevel(SystemPropertyUtil.get("rill.leakDetection.level"), ResourceLeakDetector.Level.SIMPLE);

    /**
     * {@code rill.leakDetection.samplingInterval}, default 128: at SIMPLE and ADVANCED, one
     * object in this many is tracked. Enough to find a leak that repeats (the only kind that
     * hurts a server) at well under 1% of the allocation cost.
     */
    public static final int LEAK_DETECTION_SAMPLING_INTERVAL =
            Math.max(1, SystemPropertyUtil.getInt("rill.leakDetection.samplingInterval", 128));

    /**
     * {@code rill.leakDetection.targetRecords}, default 4: access records kept per tracked object
     * at ADVANCED and PARANOID, besides its creation point. Each record holds a stack trace, so
     * a long-lived buffer touched a million times must not keep a million of them; the newest is
     * always kept, older ones are thinned out at random.
     */
    public static final int LEAK_DETECTION_TARGET_RECORDS =
            Math.max(1, SystemPropertyUtil.getInt("rill.leakDetection.targetRecords", 4));

    // --- object pool

    /**
     * {@code rill.objectPool.maxCapacityPerThread}, default 4096: pooled instances each thread
     * keeps per {@link ObjectPool}. Bounds the memory a burst can pin forever; 0 disables pooling.
     */
    public static final int OBJECT_POOL_MAX_CAPACITY_PER_THREAD =
            Math.max(0, SystemPropertyUtil.getInt("rill.objectPool.maxCapacityPerThread", 4096));

    /**
     * {@code rill.objectPool.maxCrossThreadRecycles}, default 256: objects recycled by other
     * threads that wait for their owning thread to take them back. Beyond it they are dropped to
     * the garbage collector, so a producer/consumer pair cannot grow a pool without bound.
     */
    public static final int OBJECT_POOL_MAX_CROSS_THREAD_RECYCLES =
            Math.max(0, SystemPropertyUtil.getInt("rill.objectPool.maxCrossThreadRecycles", 256));

    // --- timer

    /**
     * {@code rill.timer.instanceWarningThreshold}, default 64: live {@link HashedWheelTimer}s
     * beyond which one warning is logged. Each owns a thread and a wheel; an application should
     * share a handful, and more than 64 almost always means one per connection by mistake.
     */
    public static final int TIMER_INSTANCE_WARNING_THRESHOLD =
            Math.max(1, SystemPropertyUtil.getInt("rill.timer.instanceWarningThreshold", 64));

    // --- native

    /**
     * {@code rill.native.workdir}, default {@code java.io.tmpdir}: where
     * {@link NativeLibraryLoader} extracts bundled JNI libraries before loading them. Set it
     * when the temporary directory is mounted {@code noexec}. Null when unset.
     */
    public static final String NATIVE_WORKDIR = SystemPropertyUtil.get("rill.native.workdir");

    /**
     * {@code rill.native.deleteLibAfterLoading}, default true: remove an extracted library as
     * soon as it is loaded, so crashed JVMs leave no files behind. Turn off to inspect the file.
     */
    public static final boolean NATIVE_DELETE_LIB_AFTER_LOADING =
            SystemPropertyUtil.getBoolean("rill.native.deleteLibAfterLoading", true);

    /**
     * {@code rill.epoll.warmBatch}, default 32: the epoll loop touches the objects of up to this many
     * ready channels together before it handles the first of them. With thousands of connections those
     * objects have left the CPU's caches; fetched together their loads overlap, where handling each
     * channel in turn would stall on them one by one (README, "Tuning"). Rounded down to a power of
     * two; 1 turns it off.
     */
    public static final int EPOLL_WARM_BATCH =
            Integer.highestOneBit(Math.max(1, Math.min(4096, SystemPropertyUtil.getInt("rill.epoll.warmBatch", 32))));

    // --- helpers

    static ResourceLeakDetector.Level parseLevel(String value, ResourceLeakDetector.Level def) {
        if (value == null) {
            return def;
        }
        try {
            return ResourceLeakDetector.Level.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            InternalLogger.get(RillProperties.class).warn(
                    "rill.leakDetection.level is '{}', expected one of DISABLED, SIMPLE, ADVANCED, PARANOID; using {}",
                    value, def);
            return def;
        }
    }

    // --- other modules: append new sections below this line

    // --- buffer

    /**
     * {@code rill.allocator.type}, {@code pooled} (default) or {@code unpooled}: what
     * {@code ByteBufAllocator.DEFAULT} is. Pooled avoids zeroing and GC pressure for the
     * short-lived buffers of network I/O; unpooled is simpler to reason about when debugging.
     */
    public static final String ALLOCATOR_TYPE = SystemPropertyUtil.get("rill.allocator.type", "pooled");

    /**
     * {@code rill.allocator.pageSize}, default 8192: the unit of a run; a power of two >= 4096.
     * 8 KiB keeps the page-level bitmap of a chunk small (512 bits) and covers typical reads.
     */
    public static final int ALLOCATOR_PAGE_SIZE = SystemPropertyUtil.getInt("rill.allocator.pageSize", 8192);

    /**
     * {@code rill.allocator.maxOrder}, default 9: a chunk is {@code pageSize << maxOrder}
     * (4 MiB by default). Larger chunks waste more memory per idle arena; smaller ones send more
     * allocations to the unpooled "huge" path. 4 MiB matches what jemalloc and Netty 4.1.x use.
     */
    public static final int ALLOCATOR_MAX_ORDER = SystemPropertyUtil.getInt("rill.allocator.maxOrder", 9);

    /**
     * {@code rill.allocator.numHeapArenas}, default {@code min(2 * cores, maxHeap / chunk / 6)}:
     * two arenas per core make arena-lock contention rare; the memory bound keeps small heaps
     * from being eaten by mostly-empty chunks (each arena holds at least one). 0 disables heap pooling.
     */
    public static final int ALLOCATOR_NUM_HEAP_ARENAS =
            Math.max(0, SystemPropertyUtil.getInt("rill.allocator.numHeapArenas", defaultArenas()));

    /** {@code rill.allocator.numDirectArenas}: as {@link #ALLOCATOR_NUM_HEAP_ARENAS}, for direct memory. */
    public static final int ALLOCATOR_NUM_DIRECT_ARENAS =
            Math.max(0, SystemPropertyUtil.getInt("rill.allocator.numDirectArenas", defaultArenas()));

    /**
     * {@code rill.allocator.smallCacheSize}, default 256: regions each thread caches per small
     * size class (&lt; 32 KiB). Enough to absorb a burst of a connection's reads without the arena lock.
     */
    public static final int ALLOCATOR_SMALL_CACHE_SIZE =
            SystemPropertyUtil.getInt("rill.allocator.smallCacheSize", 256);

    /** {@code rill.allocator.normalCacheSize}, default 64: regions cached per thread per normal size class. */
    public static final int ALLOCATOR_NORMAL_CACHE_SIZE =
            SystemPropertyUtil.getInt("rill.allocator.normalCacheSize", 64);

    /**
     * {@code rill.allocator.maxCachedBufferCapacity}, default 65536: larger regions always go back
     * to the arena, because caching them would pin too much memory per thread.
     */
    public static final int ALLOCATOR_MAX_CACHED_BUFFER_CAPACITY =
            SystemPropertyUtil.getInt("rill.allocator.maxCachedBufferCapacity", 64 * 1024);

    /**
     * {@code rill.allocator.cacheTrimInterval}, default 8192: after this many allocations through
     * a thread cache, entries that were not reused since the last trim go back to the arena, so an
     * idle thread does not hold memory forever.
     */
    public static final int ALLOCATOR_CACHE_TRIM_INTERVAL =
            SystemPropertyUtil.getInt("rill.allocator.cacheTrimInterval", 8192);

    /**
     * {@code rill.allocator.useCacheForAllThreads}, default true: give every thread a cache, not
     * only Rill's event-loop threads. Off saves memory when many short-lived threads allocate.
     */
    public static final boolean ALLOCATOR_USE_CACHE_FOR_ALL_THREADS =
            SystemPropertyUtil.getBoolean("rill.allocator.useCacheForAllThreads", true);

    /**
     * {@code rill.allocator.trimIntervalMillis}, default 4000: how often a pooled allocator looks
     * for memory to give back. Each time, every event-loop thread whose cache holds regions gets a
     * task that returns the regions it did not reuse since the previous trim (a loop that went
     * quiet returns all of them by the second pass, one that is busy keeps what it uses), and
     * chunks idle for {@link #ALLOCATOR_CHUNK_IDLE_MILLIS} are freed. A few seconds keeps a busy
     * loop's working set between passes while the memory of a burst is back well within half a
     * minute; a pass costs one task per loop that holds something, nothing on the allocation path.
     * 0 turns the background pass off (then only {@code reclaimIdleMemory()} calls free chunks).
     */
    public static final long ALLOCATOR_TRIM_INTERVAL_MILLIS =
            Math.max(0, SystemPropertyUtil.getLong("rill.allocator.trimIntervalMillis", 4000L));

    /**
     * {@code rill.allocator.chunkIdleMillis}, default 10000: how long a chunk must stay entirely
     * free before the pool frees its memory. Until then an allocation reuses it, so a load that
     * swings around a chunk boundary does not free and re-allocate (and re-fault) 4 MiB each
     * time; at one such cycle per 10 s the cost is negligible, and a burst's memory still goes
     * back within about 20 s (two trim passes, then this).
     */
    public static final long ALLOCATOR_CHUNK_IDLE_MILLIS =
            Math.max(0, SystemPropertyUtil.getLong("rill.allocator.chunkIdleMillis", 10_000L));

    /**
     * {@code rill.allocator.releaseDirectMemory}, default true: on JDK 22 and later, pooled direct
     * chunks are allocated through {@code java.lang.foreign} (one shared {@code Arena} each) and
     * their memory goes back to the C heap the moment the pool frees them. Off, or before JDK 22,
     * they come from {@code ByteBuffer.allocateDirect}, whose memory is only freed once the GC
     * collects the buffer, which on an idle server may be never (unless the JVM runs periodic
     * collections, {@code -XX:G1PeriodicGCInterval}). Turn off to get the JDK's own
     * {@code -XX:MaxDirectMemorySize} accounting back for the pool.
     */
    public static final boolean ALLOCATOR_RELEASE_DIRECT_MEMORY =
            SystemPropertyUtil.getBoolean("rill.allocator.releaseDirectMemory", true);

    /**
     * {@code rill.allocator.gcAfterDirectRelease}, default 16 MiB (four chunks): where freed direct chunks only go
     * back to the system when the GC collects their buffers (before JDK 22, or with
     * {@code releaseDirectMemory} off), the periodic pass asks for a collection
     * ({@code System.gc()}) once it has freed this many bytes of direct memory since the last time,
     * at most once a minute. It only happens after a burst has ended (chunks are freed after they
     * stayed empty for {@link #ALLOCATOR_CHUNK_IDLE_MILLIS}), so a busy server is not disturbed,
     * and an idle one gives the burst back instead of holding it until the next GC, which on an
     * idle JVM may be never. Four chunks is what a burst of a few hundred attacking connections leaves
     * behind on a server with a budget of a few tens of MiB; at 64 MiB such a burst was never given back.
     * The collection is a full one unless the JVM runs with {@code -XX:+ExplicitGCInvokesConcurrent}; on a
     * heap with gigabytes live, set that flag or a larger threshold. 0 turns it off (then consider
     * {@code -XX:G1PeriodicGCInterval}).
     */
    public static final long ALLOCATOR_GC_AFTER_DIRECT_RELEASE =
            Math.max(0, SystemPropertyUtil.getLong("rill.allocator.gcAfterDirectRelease", 16L << 20));

    /**
     * {@code rill.allocator.maxDirectMemory}, default the maximum heap size (the JVM's own default
     * for {@code -XX:MaxDirectMemorySize}): bytes of direct memory that pooled chunks and huge
     * buffers allocated through {@code java.lang.foreign} may hold at once. That memory is not
     * counted by the JDK's direct-memory limit, so without this bound a burst could take all of
     * the machine's memory; beyond it allocations fail with an {@link OutOfMemoryError} naming
     * this property.
     */
    public static final long ALLOCATOR_MAX_DIRECT_MEMORY =
            SystemPropertyUtil.getLong("rill.allocator.maxDirectMemory", Runtime.getRuntime().maxMemory());

    /**
     * {@code rill.buffer.maxComponents}, default 16: components a composite buffer holds before it
     * consolidates them into one, so a long-lived cumulation stays cheap to index.
     */
    public static final int BUFFER_MAX_COMPONENTS = SystemPropertyUtil.getInt("rill.buffer.maxComponents", 16);

    /**
     * {@code rill.buffer.checkAccessible}, default true: every access checks that the buffer was not
     * released. Turning it off saves a load per access on views, composites and the read/write
     * methods and turns use-after-release into silent reads of recycled memory; only for
     * benchmarks. (Indexed get/set on heap and direct buffers need no extra load either way: a
     * released buffer's index limit is -1, so their bounds check fails.)
     */
    public static final boolean BUFFER_CHECK_ACCESSIBLE =
            SystemPropertyUtil.getBoolean("rill.buffer.checkAccessible", true);

    /**
     * {@code rill.buffer.checkBounds}, default true: every access checks its index against the
     * capacity. Off, a bad index hits the JDK's own array or ByteBuffer check (still an
     * {@code IndexOutOfBoundsException}, without our message) or another buffer's pooled bytes.
     */
    public static final boolean BUFFER_CHECK_BOUNDS = SystemPropertyUtil.getBoolean("rill.buffer.checkBounds", true);

    private static int defaultArenas() {
        long chunkSize = (long) ALLOCATOR_PAGE_SIZE << ALLOCATOR_MAX_ORDER;
        long byMemory = Runtime.getRuntime().maxMemory() / chunkSize / 6;
        return (int) Math.min(2L * Runtime.getRuntime().availableProcessors(), byMemory);
    }

    // --- transport

    /**
     * {@code rill.channel.outboundEntryOverhead}, default 96: bytes each queued write counts
     * towards the write-buffer water marks on top of its payload. Roughly the heap an entry and
     * its promise take; without it a flood of empty or tiny messages would never make a channel
     * unwritable while still growing the heap without bound.
     */
    public static final int CHANNEL_OUTBOUND_ENTRY_OVERHEAD =
            Math.max(0, SystemPropertyUtil.getInt("rill.channel.outboundEntryOverhead", 96));

    // --- NIO transport

    /**
     * {@code rill.channel.acceptBackoffMillis}, default 1000: how long a server channel stops
     * accepting after {@code accept()} failed with an I/O error such as EMFILE ("Too many open
     * files"). The pending connection stays in the kernel's queue, so the listening socket stays
     * readable: retrying at once would spin the event loop at 100 % CPU without making progress.
     * A second is long enough for connections to close and free descriptors, short enough that
     * clients waiting in the backlog are served before they give up.
     */
    public static final int CHANNEL_ACCEPT_BACKOFF_MILLIS =
            Math.max(1, SystemPropertyUtil.getInt("rill.channel.acceptBackoffMillis", 1000));

    // --- observability

    /**
     * {@code rill.jfr.taskLagThresholdMillis}, default 20: a task that waited in an event loop's
     * queue longer than this is reported as an {@code io.rill.TaskLag} JFR event while a recording
     * has that event on. 20 ms is well above the 1 ms task quantum, so only a loop that is really
     * behind (a blocking handler, a flood) shows up; lower it to look closer.
     */
    public static final long JFR_TASK_LAG_THRESHOLD_NANOS =
            1_000_000L * Math.max(0, SystemPropertyUtil.getLong("rill.jfr.taskLagThresholdMillis", 20L));

    // --- blocking work (io.rill.channel.BlockingExecutor)

    /**
     * {@code rill.blocking.maxPendingTasks}, default 65,536: blocking tasks a
     * {@code BlockingExecutor} holds at once, running or waiting; beyond it submissions fail with
     * a RejectedExecutionException. A virtual thread is cheap but its stack and the request it
     * serves are not: a stalled database must slow the server down, not exhaust its heap.
     */
    public static final int BLOCKING_MAX_PENDING_TASKS =
            Math.max(1, SystemPropertyUtil.getInt("rill.blocking.maxPendingTasks", 65_536));

    /**
     * {@code rill.blocking.platformThreads}, default 64: threads of a {@code BlockingExecutor} on a
     * JDK without virtual threads (before 21). Each blocked task holds one; 64 is a typical
     * connection-pool size, so more threads would mostly wait for the pool anyway.
     */
    public static final int BLOCKING_PLATFORM_THREADS =
            Math.max(1, SystemPropertyUtil.getInt("rill.blocking.platformThreads", 64));
}
