package io.rill.buffer.pool;

import io.rill.util.InternalLogger;
import io.rill.util.RillProperties;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where direct arenas get their memory, and how they give it back.
 *
 * <p>{@code ByteBuffer.allocateDirect} memory is freed only when the GC finds the buffer
 * unreachable. A pool's chunks live long enough to sit in the old generation, and an idle
 * server runs no collection at all, so a chunk the pool dropped can keep its memory for hours.
 * On JDK 22 and later each chunk is therefore a segment of its own shared
 * {@code java.lang.foreign.Arena}: closing the arena frees the memory at once. The classes are
 * reached through method handles on their public API because Rill compiles for Java 17; only
 * {@code Arena.close()} runs per free, through {@link AutoCloseable}.
 *
 * <p>Memory allocated that way is not counted against {@code -XX:MaxDirectMemorySize}, so this
 * class keeps its own count against {@link RillProperties#ALLOCATOR_MAX_DIRECT_MEMORY}.
 *
 * <p>Closing a shared arena fails while a thread is inside an I/O call on one of its buffers.
 * That can only happen to a chunk that is empty if a buffer was used after its release; the
 * arena is then kept and closed by a later {@link #free}, and the bug is logged once.
 */
final class DirectMemory {

    private static final InternalLogger LOG = InternalLogger.get(DirectMemory.class);

    /** What every direct arena uses, chosen from {@link RillProperties#ALLOCATOR_RELEASE_DIRECT_MEMORY}. */
    static final DirectMemory SHARED = new DirectMemory(RillProperties.ALLOCATOR_RELEASE_DIRECT_MEMORY
            ? ForeignArenas.load() : null, RillProperties.ALLOCATOR_MAX_DIRECT_MEMORY);

    /** Handles on java.lang.foreign, or null when memory comes from allocateDirect. */
    private final ForeignArenas foreign;
    private final long limit;
    private final AtomicLong reserved = new AtomicLong();
    /** The arena of each live buffer allocated through {@link #foreign}, by identity. Guarded by itself. */
    private final Map<ByteBuffer, AutoCloseable> arenas = new IdentityHashMap<>();
    /** Arenas whose close failed, retried by the next free. Guarded by {@link #arenas}. */
    private final Map<ByteBuffer, AutoCloseable> unclosed = new IdentityHashMap<>();

    private DirectMemory(ForeignArenas foreign, long limit) {
        this.foreign = foreign;
        this.limit = limit;
    }

    /** True if {@link #free} gives memory back at once; false if it waits for the GC. */
    boolean releasesPromptly() {
        return foreign != null;
    }

    /** Zeroed direct memory of {@code size} bytes. */
    ByteBuffer allocate(int size) {
        if (foreign == null) {
            return ByteBuffer.allocateDirect(size);
        }
        long now = reserved.addAndGet(size);
        if (now > limit) {
            reserved.addAndGet(-size);
            throw new OutOfMemoryError("Cannot allocate " + size + " bytes of pooled direct memory (in use: "
                    + (now - size) + ", limit: " + limit + "); raise rill.allocator.maxDirectMemory");
        }
        try {
            AutoCloseable arena = foreign.newArena();
            ByteBuffer memory = foreign.allocate(arena, size);
            synchronized (arenas) {
                arenas.put(memory, arena);
            }
            return memory;
        } catch (Throwable t) {
            reserved.addAndGet(-size);
            throw t;
        }
    }

    /** Frees memory from {@link #allocate}: at once when {@link #releasesPromptly()}, else leaves it to the GC. */
    void free(ByteBuffer memory) {
        if (foreign == null) {
            return;
        }
        AutoCloseable arena;
        synchronized (arenas) {
            arena = arenas.remove(memory);
            if (arena == null) {
                throw new IllegalStateException("not allocated here or freed twice: " + memory);
            }
            if (!unclosed.isEmpty()) {
                unclosed.entrySet().removeIf(e -> close(e.getKey(), e.getValue()));
            }
            if (!close(memory, arena)) {
                unclosed.put(memory, arena);
            }
        }
    }

    private boolean close(ByteBuffer memory, AutoCloseable arena) {
        try {
            arena.close();
        } catch (IllegalStateException e) {
            if (unclosed.isEmpty()) {
                LOG.warn("Pooled direct memory is still in use after the pool freed it (a buffer used after its "
                        + "release?); retrying later: " + e);
            }
            return false;
        } catch (Exception e) {
            throw new IllegalStateException("closing the arena of " + memory, e);
        }
        reserved.addAndGet(-memory.capacity());
        return true;
    }

    /** Method handles on the public java.lang.foreign API (final in JDK 22). */
    private static final class ForeignArenas {
        /** malloc's own alignment on 64-bit platforms: asking for more would over-allocate. */
        private static final long ALIGNMENT = 16;

        private final MethodHandle ofShared;
        private final MethodHandle allocate;
        private final MethodHandle asByteBuffer;

        private ForeignArenas(MethodHandle ofShared, MethodHandle allocate, MethodHandle asByteBuffer) {
            this.ofShared = ofShared;
            this.allocate = allocate;
            this.asByteBuffer = asByteBuffer;
        }

        /** The handles, or null before JDK 22 (where the API is absent or a preview). */
        static ForeignArenas load() {
            if (Runtime.version().feature() < 22) {
                return null;
            }
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                Class<?> arena = Class.forName("java.lang.foreign.Arena");
                Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
                return new ForeignArenas(
                        lookup.findStatic(arena, "ofShared", MethodType.methodType(arena)),
                        lookup.findVirtual(arena, "allocate", MethodType.methodType(segment, long.class, long.class)),
                        lookup.findVirtual(segment, "asByteBuffer", MethodType.methodType(ByteBuffer.class)));
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.warn("java.lang.foreign is not usable; pooled direct memory will be freed by the GC: " + e);
                return null;
            }
        }

        AutoCloseable newArena() {
            try {
                return (AutoCloseable) ofShared.invoke();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        ByteBuffer allocate(AutoCloseable arena, int size) {
            try {
                return (ByteBuffer) asByteBuffer.invoke(allocate.invoke(arena, (long) size, ALIGNMENT));
            } catch (RuntimeException | Error e) {
                try {
                    arena.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
    }
}
