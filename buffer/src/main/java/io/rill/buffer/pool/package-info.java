/**
 * The bookkeeping of the pooled allocator, in {@code long} handles and (memory, offset, length)
 * triples rather than buffers, so it can be tested without a {@code ByteBuf}.
 * {@link io.rill.buffer.pool.SizeClasses} maps request sizes to the classes the pool serves,
 * {@link io.rill.buffer.pool.PoolChunk} carves a chunk into runs and subpages,
 * {@link io.rill.buffer.pool.PoolArena} holds chunks and serves allocations, and
 * {@link io.rill.buffer.pool.PoolThreadCache} keeps recently freed regions per thread.
 *
 * <p>Exported for the figures these classes report (through
 * {@code PooledByteBufAllocator.metric()}); applications allocate through
 * {@code io.rill.buffer.PooledByteBufAllocator}, never from here.
 */
package io.rill.buffer.pool;
