package io.rill.buffer;

import io.rill.util.RillProperties;

/**
 * Holds the choice behind {@link ByteBufAllocator#DEFAULT}: the one place that knows both
 * allocators and picks one by {@link RillProperties#ALLOCATOR_TYPE}, so the allocator types they
 * implement and extend name neither.
 */
final class AllocatorChoice {

    /** The pooled allocator unless {@code rill.allocator.type=unpooled}. */
    static final ByteBufAllocator DEFAULT = "unpooled".equalsIgnoreCase(RillProperties.ALLOCATOR_TYPE)
            ? UnpooledByteBufAllocator.DEFAULT : PooledByteBufAllocator.DEFAULT;

    private AllocatorChoice() {
    }
}
