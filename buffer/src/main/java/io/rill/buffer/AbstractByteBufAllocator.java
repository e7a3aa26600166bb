package io.rill.buffer;

import io.rill.util.ResourceLeakDetector;
import io.rill.util.ResourceLeakTracker;
import io.rill.util.RillProperties;

/**
 * The parts every allocator shares: argument checks, the growth policy, composites, and
 * wrapping tracked buffers in a {@link LeakAwareByteBuf}.
 */
abstract class AbstractByteBufAllocator implements ByteBufAllocator {

    static final int DEFAULT_INITIAL_CAPACITY = 256;
    static final int DEFAULT_MAX_CAPACITY = Integer.MAX_VALUE;
    /** Above this, buffers grow in steps of this size instead of doubling. */
    static final int GROWTH_THRESHOLD = 4 * 1024 * 1024;

    static final ResourceLeakDetector<ByteBuf> LEAK_DETECTOR = new ResourceLeakDetector<>(ByteBuf.class);

    private final boolean directByDefault;

    AbstractByteBufAllocator(boolean preferDirect) {
        this.directByDefault = preferDirect;
    }

    /** A heap buffer with at least {@code initialCapacity}; arguments already checked. */
    abstract ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity);

    abstract ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity);

    /** Wraps {@code buf} in a leak-aware view when the detector decides to track it. */
    static ByteBuf toLeakAware(ByteBuf buf) {
        ResourceLeakTracker<ByteBuf> tracker = LEAK_DETECTOR.track(buf);
        return tracker == null ? buf : ByteBufViews.leakAware((AbstractByteBuf) buf, tracker);
    }

    static CompositeByteBuf toLeakAware(CompositeByteBuf buf) {
        buf.leak = LEAK_DETECTOR.track(buf);
        return buf;
    }

    private static void validate(int initialCapacity, int maxCapacity) {
        if (initialCapacity < 0 || initialCapacity > maxCapacity) {
            throw new IllegalArgumentException("initialCapacity: " + initialCapacity
                    + " (expected: 0 <= initialCapacity <= maxCapacity(" + maxCapacity + "))");
        }
    }

    @Override
    public ByteBuf buffer() {
        return buffer(DEFAULT_INITIAL_CAPACITY, DEFAULT_MAX_CAPACITY);
    }

    @Override
    public ByteBuf buffer(int initialCapacity) {
        return buffer(initialCapacity, DEFAULT_MAX_CAPACITY);
    }

    @Override
    public ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return directByDefault ? directBuffer(initialCapacity, maxCapacity) : heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public ByteBuf ioBuffer() {
        return directBuffer(DEFAULT_INITIAL_CAPACITY, DEFAULT_MAX_CAPACITY);
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity) {
        return directBuffer(initialCapacity, DEFAULT_MAX_CAPACITY);
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
        return directBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public ByteBuf heapBuffer() {
        return heapBuffer(DEFAULT_INITIAL_CAPACITY, DEFAULT_MAX_CAPACITY);
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity) {
        return heapBuffer(initialCapacity, DEFAULT_MAX_CAPACITY);
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) {
        validate(initialCapacity, maxCapacity);
        return newHeapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public ByteBuf directBuffer() {
        return directBuffer(DEFAULT_INITIAL_CAPACITY, DEFAULT_MAX_CAPACITY);
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity) {
        return directBuffer(initialCapacity, DEFAULT_MAX_CAPACITY);
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        validate(initialCapacity, maxCapacity);
        return newDirectBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public CompositeByteBuf compositeBuffer() {
        return compositeBuffer(RillProperties.BUFFER_MAX_COMPONENTS);
    }

    @Override
    public CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return directByDefault ? compositeDirectBuffer(maxNumComponents) : compositeHeapBuffer(maxNumComponents);
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer() {
        return compositeHeapBuffer(RillProperties.BUFFER_MAX_COMPONENTS);
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        return toLeakAware(new CompositeByteBuf(this, false, maxNumComponents));
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer() {
        return compositeDirectBuffer(RillProperties.BUFFER_MAX_COMPONENTS);
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        return toLeakAware(new CompositeByteBuf(this, true, maxNumComponents));
    }

    @Override
    public int calculateNewCapacity(int minNewCapacity, int maxCapacity) {
        if (minNewCapacity < 0 || minNewCapacity > maxCapacity) {
            throw new IllegalArgumentException("minNewCapacity: " + minNewCapacity
                    + " (expected: 0 <= minNewCapacity <= maxCapacity(" + maxCapacity + "))");
        }
        if (minNewCapacity > GROWTH_THRESHOLD) {
            int steps = minNewCapacity / GROWTH_THRESHOLD;
            if (minNewCapacity % GROWTH_THRESHOLD != 0) {
                steps++;
            }
            long capacity = (long) steps * GROWTH_THRESHOLD;
            return (int) Math.min(capacity, maxCapacity);
        }
        int capacity = 64;
        while (capacity < minNewCapacity) {
            capacity <<= 1;
        }
        return Math.min(capacity, maxCapacity);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(directByDefault: " + directByDefault + ")";
    }
}
