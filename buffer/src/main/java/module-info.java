/**
 * Rill's byte buffers: {@link io.rill.buffer.ByteBuf} (heap, direct, composite and views),
 * reference counting, and the pooled allocator whose bookkeeping lives in
 * {@code io.rill.buffer.pool} (exported for its metrics).
 */
module io.rill.buffer {
    requires transitive io.rill.common;
    // JFR events io.rill.ChunkAllocated and io.rill.ChunkFreed.
    requires jdk.jfr;

    exports io.rill.buffer;
    exports io.rill.buffer.pool;
}
