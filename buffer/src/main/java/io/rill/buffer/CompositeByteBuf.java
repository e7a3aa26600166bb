package io.rill.buffer;

import static io.rill.buffer.IndexChecks.checkRange;

import io.rill.buffer.ComponentList.Component;
import io.rill.util.ResourceLeakTracker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Several buffers seen as one, without copying. The composite owns its components: it
 * releases each one when the component is removed or the composite is freed.
 *
 * A component covers the readable bytes its buffer had when it was added; the buffer's own
 * indexes are not used afterwards. Finding the component of an index is a binary search,
 * short-cut by remembering the last component hit (sequential reads stay on one component).
 * When more than {@link #maxNumComponents()} components are added, they are consolidated into
 * one copied buffer so lookups stay cheap.
 */
public final class CompositeByteBuf extends AbstractByteBuf {

    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(CompositeByteBuf.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Twice the number of owners while live; odd once released, when every component was
     * released. Kept by {@link RefCount}; atomic updates via REF_CNT only.
     */
    private int refCnt = RefCount.ONE_OWNER;
    private final ByteBufAllocator alloc;
    /** Leak tracker set by the allocator, closed when the composite is freed; may be null. */
    ResourceLeakTracker<ByteBuf> leak;
    private final boolean direct;
    private final int maxNumComponents;
    /** The components, their offsets and the lookup of an index. */
    private final ComponentList components;

    CompositeByteBuf(ByteBufAllocator alloc, boolean direct, int maxNumComponents) {
        if (maxNumComponents < 1) {
            throw new IllegalArgumentException("maxNumComponents: " + maxNumComponents + " (expected: >= 1)");
        }
        this.alloc = alloc;
        this.direct = direct;
        this.maxNumComponents = maxNumComponents;
        this.components = new ComponentList(Math.min(maxNumComponents, 16));
    }

    // ------------------------------------------------------------------ components

    /**
     * Appends {@code buf} without moving the writer index; see {@link #addComponent(boolean, int, ByteBuf)}.
     *
     * @param buf the component; ownership passes to the composite
     * @return this composite
     */
    public CompositeByteBuf addComponent(ByteBuf buf) {
        return addComponent(false, components.count(), buf);
    }

    /**
     * Appends {@code buf}; with {@code increaseWriterIndex} its bytes also become readable.
     *
     * @param increaseWriterIndex whether the new bytes become readable
     * @param buf the component; ownership passes to the composite
     * @return this composite
     */
    public CompositeByteBuf addComponent(boolean increaseWriterIndex, ByteBuf buf) {
        return addComponent(increaseWriterIndex, components.count(), buf);
    }

    /**
     * Inserts {@code buf} as component {@code cIndex} without moving the writer index; see {@link
     * #addComponent(boolean, int, ByteBuf)}.
     *
     * @param cIndex the position among the components
     * @param buf the component; ownership passes to the composite
     * @return this composite
     */
    public CompositeByteBuf addComponent(int cIndex, ByteBuf buf) {
        return addComponent(false, cIndex, buf);
    }

    /**
     * Inserts {@code buf}'s readable bytes as component {@code cIndex}. The composite takes
     * ownership: {@code buf} is released when removed or when the composite is freed (at once
     * if it has no readable bytes). Inserting before the writer index does not move it.
     *
     * @param increaseWriterIndex whether the new bytes become readable
     * @param cIndex the position among the components, {@code [0, numComponents()]}
     * @param buf the component; ownership passes to the composite
     * @return this composite
     */
    public CompositeByteBuf addComponent(boolean increaseWriterIndex, int cIndex, ByteBuf buf) {
        ensureAccessible();
        int count = components.count();
        if (cIndex < 0 || cIndex > count) {
            buf.release();
            throw new IndexOutOfBoundsException("component index " + cIndex + " is outside [0, " + count + ']');
        }
        int length = buf.readableBytes();
        if (length == 0) {
            buf.release();
            return this;
        }
        if (capacity() > Integer.MAX_VALUE - length) {
            buf.release();
            throw new IndexOutOfBoundsException("a component of " + length + " bytes would take capacity "
                    + capacity() + " past maxCapacity " + maxCapacity());
        }
        components.add(cIndex, buf, length);
        if (increaseWriterIndex) {
            writerIndex += length;
        }
        if (components.count() > maxNumComponents) {
            consolidate();
        }
        return this;
    }

    /**
     * Appends each buffer in order; see {@link #addComponent(boolean, int, ByteBuf)}.
     *
     * @param increaseWriterIndex whether the new bytes become readable
     * @param buffers the components; ownership of all passes to the composite, even when this throws
     * @return this composite
     */
    public CompositeByteBuf addComponents(boolean increaseWriterIndex, ByteBuf... buffers) {
        for (int i = 0; i < buffers.length; i++) {
            try {
                addComponent(increaseWriterIndex, components.count(), buffers[i]);
            } catch (RuntimeException e) {
                for (int j = i + 1; j < buffers.length; j++) {
                    ReferenceCountUtil.safeRelease(buffers[j]);
                }
                throw e;
            }
        }
        return this;
    }

    /**
     * Appends each buffer without moving the writer index; see {@link #addComponent(boolean, int, ByteBuf)}.
     *
     * @param buffers the components; ownership of all passes to the composite
     * @return this composite
     */
    public CompositeByteBuf addComponents(ByteBuf... buffers) {
        return addComponents(false, buffers);
    }

    /**
     * Removes and releases component {@code cIndex}; later components move down.
     *
     * @param cIndex the component to remove
     * @return this composite
     */
    public CompositeByteBuf removeComponent(int cIndex) {
        return removeComponents(cIndex, 1);
    }

    /**
     * Removes and releases components {@code [cIndex, cIndex + numComponents)}; later components move down and
     * the indexes shrink to the new capacity.
     *
     * @param cIndex the first component to remove
     * @param numComponents how many to remove
     * @return this composite
     */
    public CompositeByteBuf removeComponents(int cIndex, int numComponents) {
        ensureAccessible();
        checkRange("component", cIndex, numComponents, components.count());
        if (numComponents == 0) {
            return this;
        }
        components.remove(cIndex, numComponents);
        trimIndexesTo(capacity());
        return this;
    }

    /** {@return the number of components} */
    public int numComponents() {
        return components.count();
    }

    /** {@return the component count beyond which the composite consolidates into one buffer} */
    public int maxNumComponents() {
        return maxNumComponents;
    }

    /**
     * {@return component {@code cIndex}'s bytes as a view sharing that component's count} It is not
     * retained: do not release it.
     *
     * @param cIndex the component
     */
    public ByteBuf component(int cIndex) {
        ensureAccessible();
        checkRange("component", cIndex, 1, components.count());
        return components.get(cIndex).slice();
    }

    /**
     * {@return the index of the component holding byte {@code offset}}
     *
     * @param offset an index into this composite
     */
    public int toComponentIndex(int offset) {
        checkIndex(offset, 1);
        return components.findIndex(offset);
    }

    /**
     * {@return the composite index where component {@code cIndex} starts}
     *
     * @param cIndex the component
     */
    public int toByteIndex(int cIndex) {
        checkRange("component", cIndex, 1, components.count());
        return components.get(cIndex).offset;
    }

    /**
     * {@return views of the bytes {@code [offset, offset + length)}, one per component touched} They
     * share the components' counts and are not retained: do not release them.
     *
     * @param offset the first byte
     * @param length the number of bytes
     */
    public List<ByteBuf> decompose(int offset, int length) {
        checkIndex(offset, length);
        List<ByteBuf> parts = new ArrayList<>();
        components.slices(offset, length, parts);
        return parts;
    }

    /**
     * Copies all components into one; readers see the same bytes.
     *
     * @return this composite
     */
    public CompositeByteBuf consolidate() {
        return consolidate(0, components.count());
    }

    /**
     * Copies components {@code [cIndex, cIndex + numComponents)} into one buffer.
     *
     * @param cIndex the first component to merge
     * @param numComponents how many to merge
     * @return this composite
     */
    public CompositeByteBuf consolidate(int cIndex, int numComponents) {
        ensureAccessible();
        checkRange("component", cIndex, numComponents, components.count());
        if (numComponents <= 1) {
            return this;
        }
        int start = components.get(cIndex).offset;
        int end = components.get(cIndex + numComponents - 1).endOffset;
        ByteBuf merged = direct ? alloc.directBuffer(end - start) : alloc.heapBuffer(end - start);
        components.consolidate(cIndex, numComponents, merged);
        return this;
    }

    // ------------------------------------------------------------------ identity and capacity

    @Override
    public int capacity() {
        return components.capacity();
    }

    /** Grows by appending a zeroed buffer, or shrinks by dropping and trimming the last components. */
    @Override
    public ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        int old = capacity();
        if (newCapacity > old) {
            int extra = newCapacity - old;
            ByteBuf pad = direct ? alloc.directBuffer(extra) : alloc.heapBuffer(extra);
            pad.setZero(0, extra).writerIndex(extra);
            addComponent(false, components.count(), pad);
        } else if (newCapacity < old) {
            while (components.count() > 0 && components.get(components.count() - 1).offset >= newCapacity) {
                removeComponent(components.count() - 1);
            }
            components.truncateLast(newCapacity);
            trimIndexesTo(newCapacity);
        }
        return this;
    }

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public ByteBuf unwrap() {
        return null;
    }

    @Override
    public boolean isDirect() {
        return components.count() == 0 ? direct : components.allDirect();
    }

    /** Drops fully-read components and trims the first partially-read one; copies nothing. */
    @Override
    public ByteBuf discardReadBytes() {
        ensureAccessible();
        int discard = readerIndex;
        if (discard == 0) {
            return this;
        }
        components.discardFirst(discard);
        writerIndex -= discard;
        readerIndex = 0;
        return this;
    }

    @Override
    public ByteBuf touch(Object hint) {
        if (leak != null) {
            if (hint == null) {
                leak.record();
            } else {
                leak.record(hint);
            }
        }
        return this;
    }

    @Override
    public ByteBuf touch() {
        return touch(null);
    }

    // ------------------------------------------------------------------ reference counting

    // Components can be added until the capacity reaches the largest an int index addresses.
    @Override
    public int maxCapacity() {
        return Integer.MAX_VALUE;
    }

    @Override
    public int refCnt() {
        return RefCount.owners(REF_CNT, this);
    }

    /** True once released; a plain read (see {@link RefCount}). */
    @Override
    boolean isReleased() {
        return (refCnt & 1) != 0;
    }

    @Override
    public ByteBuf retain() {
        RefCount.retain(REF_CNT, this, 1);
        return this;
    }

    @Override
    public ByteBuf retain(int increment) {
        RefCount.checkIncrement(increment);
        RefCount.retain(REF_CNT, this, increment);
        return this;
    }

    @Override
    public boolean release() {
        return release0(1);
    }

    @Override
    public boolean release(int decrement) {
        RefCount.checkDecrement(decrement);
        return release0(decrement);
    }

    private boolean release0(int decrement) {
        if (!RefCount.release(REF_CNT, this, decrement)) {
            return false;
        }
        if (leak != null) {
            leak.close(this);
        }
        components.releaseAll();
        return true;
    }

    // ------------------------------------------------------------------ memory
    // The component list finds the component of an index and splits a value that straddles two.

    @Override
    byte _getByte(int index) {
        return components.getByte(index);
    }

    @Override
    short _getShort(int index) {
        return components.getShort(index);
    }

    @Override
    short _getShortLE(int index) {
        return Short.reverseBytes(_getShort(index));
    }

    @Override
    int _getInt(int index) {
        return components.getInt(index);
    }

    @Override
    int _getIntLE(int index) {
        return Integer.reverseBytes(_getInt(index));
    }

    @Override
    long _getLong(int index) {
        return components.getLong(index);
    }

    @Override
    long _getLongLE(int index) {
        return Long.reverseBytes(_getLong(index));
    }

    @Override
    void _setByte(int index, int value) {
        components.setByte(index, value);
    }

    @Override
    void _setShort(int index, int value) {
        components.setShort(index, value);
    }

    @Override
    void _setShortLE(int index, int value) {
        _setShort(index, Short.reverseBytes((short) value));
    }

    @Override
    void _setInt(int index, int value) {
        components.setInt(index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        _setInt(index, Integer.reverseBytes(value));
    }

    @Override
    void _setLong(int index, long value) {
        components.setLong(index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        _setLong(index, Long.reverseBytes(value));
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.capacity());
        components.forEachPart(index, length, (c, at, done, n) -> c.buf.getBytes(at, dst, dstIndex + done, n));
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.length);
        components.forEachPart(index, length, (c, at, done, n) -> c.buf.getBytes(at, dst, dstIndex + done, n));
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        checkIndex(index, dst.remaining());
        components.forEachPart(index, dst, (c, at, done, n) -> c.buf.getBytes(at, dst));
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.capacity());
        components.forEachPart(index, length, (c, at, done, n) -> c.buf.setBytes(at, src, srcIndex + done, n));
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.length);
        components.forEachPart(index, length, (c, at, done, n) -> c.buf.setBytes(at, src, srcIndex + done, n));
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        checkIndex(index, src.remaining());
        components.forEachPart(index, src, (c, at, done, n) -> c.buf.setBytes(at, src));
        return this;
    }

    // ------------------------------------------------------------------ NIO and arrays

    @Override
    public int nioBufferCount() {
        return components.nioBufferCount();
    }

    /** Shares memory when the range lies in one component; otherwise returns a copy. */
    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        if (length == 0) {
            return ByteBuffer.allocate(0);
        }
        Component c = components.find(index);
        if (index + length <= c.endOffset && c.buf.nioBufferCount() == 1) {
            return c.buf.nioBuffer(index + c.adjustment, length);
        }
        ByteBuffer copy = isDirect() ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
        getBytes(index, copy);
        return copy.flip();
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        checkIndex(index, length);
        List<ByteBuffer> parts = new ArrayList<>(components.count());
        components.forEachPart(index, length,
                (c, at, done, n) -> parts.addAll(Arrays.asList(c.buf.nioBuffers(at, n))));
        return parts.toArray(new ByteBuffer[0]);
    }

    @Override
    public boolean hasArray() {
        int count = components.count();
        return count == 0 || count == 1 && components.get(0).buf.hasArray();
    }

    @Override
    public byte[] array() {
        ensureAccessible();
        int count = components.count();
        if (count == 0) {
            return new byte[0];
        }
        if (count == 1) {
            return components.get(0).buf.array();
        }
        throw new UnsupportedOperationException("composite buffer with " + count + " components");
    }

    @Override
    public int arrayOffset() {
        int count = components.count();
        if (count == 0) {
            return 0;
        }
        if (count == 1) {
            Component c = components.get(0);
            return c.buf.arrayOffset() + c.adjustment;
        }
        throw new UnsupportedOperationException("composite buffer with " + count + " components");
    }

    @Override
    public String toString() {
        return super.toString().replace(")", ", components=" + components.count() + ")");
    }
}
