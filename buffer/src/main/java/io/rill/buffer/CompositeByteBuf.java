package io.rill.buffer;

import io.rill.util.ResourceLeakTracker;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Several buffers seen as one, without copying. The composite owns its components: it
 * releases each one when the component is removed or the composite is freed.
 *
 * <pre>
 *   composite index:   0          5               12      15
 *                      +----------+---------------+-------+
 *   components[]:      |   c0     |      c1       |  c2   |
 *                      +----------+---------------+-------+
 *   c.offset/endOffset 0..5       5..12           12..15     (cumulative, sorted)
 *   c.buf index      = composite index + c.adjustment
 * </pre>
 *
 * A component covers the readable bytes its buffer had when it was added; the buffer's own
 * indexes are not used afterwards. Finding the component of an index is a binary search over
 * the cumulative offsets, short-cut by remembering the last component hit (sequential reads
 * stay on one component). When more than {@link #maxNumComponents()} components are added,
 * they are consolidated into one copied buffer so lookups stay cheap.
 */
public final class CompositeByteBuf extends CountedByteBuf {

    /** One part: buf's bytes [offset + adjustment, endOffset + adjustment) are this composite's [offset, endOffset). */
    private static final class Component {
        final ByteBuf buf;
        int adjustment;
        int offset;
        int endOffset;

        Component(ByteBuf buf, int adjustment, int offset, int endOffset) {
            this.buf = buf;
            this.adjustment = adjustment;
            this.offset = offset;
            this.endOffset = endOffset;
        }

        int length() {
            return endOffset - offset;
        }

        /** This component's bytes as a slice of its buffer (shares the buffer's count). */
        ByteBuf slice() {
            return buf.slice(offset + adjustment, length());
        }
    }

    private final ByteBufAllocator alloc;
    /** Leak tracker set by the allocator, closed when the composite is freed; may be null. */
    ResourceLeakTracker<ByteBuf> leak;
    private final boolean direct;
    private final int maxNumComponents;
    /** components[0..count) with components[i].endOffset == components[i + 1].offset. */
    private Component[] components;
    private int count;
    /** The component last found by {@link #find}; null when invalidated. */
    private Component last;

    CompositeByteBuf(ByteBufAllocator alloc, boolean direct, int maxNumComponents) {
        super(Integer.MAX_VALUE);
        if (maxNumComponents < 1) {
            throw new IllegalArgumentException("maxNumComponents: " + maxNumComponents + " (expected: >= 1)");
        }
        this.alloc = alloc;
        this.direct = direct;
        this.maxNumComponents = maxNumComponents;
        this.components = new Component[Math.min(maxNumComponents, 16)];
    }

    // ------------------------------------------------------------------ components

    /**
     * Appends {@code buf} without moving the writer index; see {@link #addComponent(boolean, int, ByteBuf)}.
     *
     * @param buf the component; ownership passes to the composite
     * @return this composite
     */
    public CompositeByteBuf addComponent(ByteBuf buf) {
        return addComponent(false, count, buf);
    }

    /**
     * Appends {@code buf}; with {@code increaseWriterIndex} its bytes also become readable.
     *
     * @param increaseWriterIndex whether the new bytes become readable
     * @param buf the component; ownership passes to the composite
     * @return this composite
     */
    public CompositeByteBuf addComponent(boolean increaseWriterIndex, ByteBuf buf) {
        return addComponent(increaseWriterIndex, count, buf);
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
        int offset = cIndex == 0 ? 0 : components[cIndex - 1].endOffset;
        insert(cIndex, new Component(buf, buf.readerIndex() - offset, offset, offset + length));
        shiftOffsets(cIndex + 1, length);
        if (increaseWriterIndex) {
            writerIndex += length;
        }
        if (count > maxNumComponents) {
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
                addComponent(increaseWriterIndex, count, buffers[i]);
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
        checkRange("component", cIndex, numComponents, count);
        if (numComponents == 0) {
            return this;
        }
        int removedBytes = components[cIndex + numComponents - 1].endOffset - components[cIndex].offset;
        for (int i = cIndex; i < cIndex + numComponents; i++) {
            components[i].buf.release();
        }
        System.arraycopy(components, cIndex + numComponents, components, cIndex, count - cIndex - numComponents);
        Arrays.fill(components, count - numComponents, count, null);
        count -= numComponents;
        shiftOffsets(cIndex, -removedBytes);
        trimIndexesTo(capacity());
        return this;
    }

    /** {@return the number of components} */
    public int numComponents() {
        return count;
    }

    /** {@return the component count beyond which the composite consolidates into one buffer} */
    public int maxNumComponents() {
        return maxNumComponents;
    }

    /**
     * Component {@code cIndex}'s bytes as a view sharing that component's count (not retained).
     *
     * @param cIndex the component
     * @return the view; do not release it
     */
    public ByteBuf component(int cIndex) {
        ensureAccessible();
        checkRange("component", cIndex, 1, count);
        return components[cIndex].slice();
    }

    /**
     * The index of the component holding byte {@code offset}.
     *
     * @param offset an index into this composite
     * @return the component index
     */
    public int toComponentIndex(int offset) {
        checkIndex(offset, 1);
        return findIndex(offset);
    }

    /**
     * The composite index where component {@code cIndex} starts.
     *
     * @param cIndex the component
     * @return its first byte's index in this composite
     */
    public int toByteIndex(int cIndex) {
        checkRange("component", cIndex, 1, count);
        return components[cIndex].offset;
    }

    /**
     * Views of the bytes {@code [offset, offset + length)}, one per component touched. They share
     * the components' counts and are not retained.
     *
     * @param offset the first byte
     * @param length the number of bytes
     * @return the views; do not release them
     */
    public List<ByteBuf> decompose(int offset, int length) {
        checkIndex(offset, length);
        List<ByteBuf> parts = new ArrayList<>();
        int end = offset + length;
        for (int i = length == 0 ? count : findIndex(offset); i < count && offset < end; i++) {
            Component c = components[i];
            int n = Math.min(end, c.endOffset) - offset;
            parts.add(c.buf.slice(offset + c.adjustment, n));
            offset += n;
        }
        return parts;
    }

    /**
     * Copies all components into one; readers see the same bytes.
     *
     * @return this composite
     */
    public CompositeByteBuf consolidate() {
        return consolidate(0, count);
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
        checkRange("component", cIndex, numComponents, count);
        if (numComponents <= 1) {
            return this;
        }
        int start = components[cIndex].offset;
        int end = components[cIndex + numComponents - 1].endOffset;
        ByteBuf merged = direct ? alloc.directBuffer(end - start) : alloc.heapBuffer(end - start);
        for (int i = cIndex; i < cIndex + numComponents; i++) {
            Component c = components[i];
            merged.writeBytes(c.buf, c.offset + c.adjustment, c.length());
            c.buf.release();
        }
        components[cIndex] = new Component(merged, -start, start, end);
        int removed = numComponents - 1;
        System.arraycopy(components, cIndex + numComponents, components, cIndex + 1, count - cIndex - numComponents);
        Arrays.fill(components, count - removed, count, null);
        count -= removed;
        last = null;
        return this;
    }

    private void insert(int cIndex, Component c) {
        if (count == components.length) {
            components = Arrays.copyOf(components, Math.max(4, count * 2));
        }
        System.arraycopy(components, cIndex, components, cIndex + 1, count - cIndex);
        components[cIndex] = c;
        count++;
        last = null;
    }

    private void shiftOffsets(int fromIndex, int delta) {
        for (int i = fromIndex; i < count; i++) {
            Component c = components[i];
            c.offset += delta;
            c.endOffset += delta;
            c.adjustment -= delta;
        }
        last = null;
    }

    /** The component holding {@code index}, which the caller checked is within the capacity. */
    private Component find(int index) {
        Component c = last;
        if (c != null && index >= c.offset && index < c.endOffset) {
            return c;
        }
        c = components[findIndex(index)];
        last = c;
        return c;
    }

    /** Binary search over the cumulative offsets. */
    private int findIndex(int index) {
        int low = 0;
        int high = count - 1;
        while (low <= high) {
            int mid = low + high >>> 1;
            Component c = components[mid];
            if (index >= c.endOffset) {
                low = mid + 1;
            } else if (index < c.offset) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        throw new IndexOutOfBoundsException("index " + index + " is outside [0, " + capacity() + ')');
    }

    // ------------------------------------------------------------------ identity and capacity

    @Override
    public int capacity() {
        return count == 0 ? 0 : components[count - 1].endOffset;
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
            addComponent(false, count, pad);
        } else if (newCapacity < old) {
            while (count > 0 && components[count - 1].offset >= newCapacity) {
                removeComponent(count - 1);
            }
            if (count > 0) {
                components[count - 1].endOffset = newCapacity;
            }
            last = null;
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
        if (count == 0) {
            return direct;
        }
        for (int i = 0; i < count; i++) {
            if (!components[i].buf.isDirect()) {
                return false;
            }
        }
        return true;
    }

    /** Drops fully-read components and trims the first partially-read one; copies nothing. */
    @Override
    public ByteBuf discardReadBytes() {
        ensureAccessible();
        int discard = readerIndex;
        if (discard == 0) {
            return this;
        }
        int whole = 0;
        while (whole < count && components[whole].endOffset <= discard) {
            components[whole++].buf.release();
        }
        int removedBytes = whole == 0 ? 0 : components[whole - 1].endOffset;
        System.arraycopy(components, whole, components, 0, count - whole);
        Arrays.fill(components, count - whole, count, null);
        count -= whole;
        shiftOffsets(0, -removedBytes);
        int rest = discard - removedBytes;
        if (rest > 0) {
            Component first = components[0];
            first.adjustment += rest;
            first.endOffset -= rest;
            shiftOffsets(1, -rest);
        }
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

    @Override
    void deallocate() {
        if (leak != null) {
            leak.close(this);
        }
        for (int i = 0; i < count; i++) {
            components[i].buf.release();
        }
        Arrays.fill(components, 0, count, null);
        count = 0;
        last = null;
    }

    // ------------------------------------------------------------------ memory

    @Override
    byte _getByte(int index) {
        Component c = find(index);
        return c.buf.getByte(index + c.adjustment);
    }

    @Override
    short _getShort(int index) {
        Component c = find(index);
        if (index + 2 <= c.endOffset) {
            return c.buf.getShort(index + c.adjustment);
        }
        return (short) ((_getByte(index) & 0xff) << 8 | _getByte(index + 1) & 0xff);
    }

    @Override
    short _getShortLE(int index) {
        return Short.reverseBytes(_getShort(index));
    }

    @Override
    int _getInt(int index) {
        Component c = find(index);
        if (index + 4 <= c.endOffset) {
            return c.buf.getInt(index + c.adjustment);
        }
        return (_getShort(index) & 0xffff) << 16 | _getShort(index + 2) & 0xffff;
    }

    @Override
    int _getIntLE(int index) {
        return Integer.reverseBytes(_getInt(index));
    }

    @Override
    long _getLong(int index) {
        Component c = find(index);
        if (index + 8 <= c.endOffset) {
            return c.buf.getLong(index + c.adjustment);
        }
        return (_getInt(index) & 0xffffffffL) << 32 | _getInt(index + 4) & 0xffffffffL;
    }

    @Override
    long _getLongLE(int index) {
        return Long.reverseBytes(_getLong(index));
    }

    @Override
    void _setByte(int index, int value) {
        Component c = find(index);
        c.buf.setByte(index + c.adjustment, value);
    }

    @Override
    void _setShort(int index, int value) {
        Component c = find(index);
        if (index + 2 <= c.endOffset) {
            c.buf.setShort(index + c.adjustment, value);
        } else {
            _setByte(index, value >>> 8);
            _setByte(index + 1, value);
        }
    }

    @Override
    void _setShortLE(int index, int value) {
        _setShort(index, Short.reverseBytes((short) value));
    }

    @Override
    void _setInt(int index, int value) {
        Component c = find(index);
        if (index + 4 <= c.endOffset) {
            c.buf.setInt(index + c.adjustment, value);
        } else {
            _setShort(index, value >>> 16);
            _setShort(index + 2, value);
        }
    }

    @Override
    void _setIntLE(int index, int value) {
        _setInt(index, Integer.reverseBytes(value));
    }

    @Override
    void _setLong(int index, long value) {
        Component c = find(index);
        if (index + 8 <= c.endOffset) {
            c.buf.setLong(index + c.adjustment, value);
        } else {
            _setInt(index, (int) (value >>> 32));
            _setInt(index + 4, (int) value);
        }
    }

    @Override
    void _setLongLE(int index, long value) {
        _setLong(index, Long.reverseBytes(value));
    }

    /** Walks the components covering [index, index + length), calling back with each part. */
    private interface PartCopier {
        void copy(Component c, int bufIndex, int done, int n);
    }

    private void forEachPart(int index, int length, PartCopier copier) {
        if (length == 0) {
            return;
        }
        int i = findIndex(index);
        int done = 0;
        while (done < length) {
            Component c = components[i++];
            int n = Math.min(length - done, c.endOffset - index);
            copier.copy(c, index + c.adjustment, done, n);
            index += n;
            done += n;
        }
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.capacity());
        forEachPart(index, length, (c, at, done, n) -> c.buf.getBytes(at, dst, dstIndex + done, n));
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.length);
        forEachPart(index, length, (c, at, done, n) -> c.buf.getBytes(at, dst, dstIndex + done, n));
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        int length = dst.remaining();
        checkIndex(index, length);
        int limit = dst.limit();
        try {
            forEachPart(index, length, (c, at, done, n) -> {
                dst.limit(dst.position() + n);
                c.buf.getBytes(at, dst);
            });
        } finally {
            dst.limit(limit);
        }
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.capacity());
        forEachPart(index, length, (c, at, done, n) -> c.buf.setBytes(at, src, srcIndex + done, n));
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.length);
        forEachPart(index, length, (c, at, done, n) -> c.buf.setBytes(at, src, srcIndex + done, n));
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        int length = src.remaining();
        checkIndex(index, length);
        int limit = src.limit();
        try {
            forEachPart(index, length, (c, at, done, n) -> {
                src.limit(src.position() + n);
                c.buf.setBytes(at, src);
            });
        } finally {
            src.limit(limit);
        }
        return this;
    }

    // ------------------------------------------------------------------ NIO and arrays

    @Override
    public int nioBufferCount() {
        int n = 0;
        for (int i = 0; i < count; i++) {
            n += components[i].buf.nioBufferCount();
        }
        return n;
    }

    /** Shares memory when the range lies in one component; otherwise returns a copy. */
    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        if (length == 0) {
            return ByteBuffer.allocate(0);
        }
        Component c = find(index);
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
        List<ByteBuffer> parts = new ArrayList<>(count);
        forEachPart(index, length, (c, at, done, n) -> parts.addAll(Arrays.asList(c.buf.nioBuffers(at, n))));
        return parts.toArray(new ByteBuffer[0]);
    }

    @Override
    public boolean hasArray() {
        return count == 0 || count == 1 && components[0].buf.hasArray();
    }

    @Override
    public byte[] array() {
        ensureAccessible();
        if (count == 0) {
            return new byte[0];
        }
        if (count == 1) {
            return components[0].buf.array();
        }
        throw new UnsupportedOperationException("composite buffer with " + count + " components");
    }

    @Override
    public int arrayOffset() {
        if (count == 0) {
            return 0;
        }
        if (count == 1) {
            return components[0].buf.arrayOffset() + components[0].adjustment;
        }
        throw new UnsupportedOperationException("composite buffer with " + count + " components");
    }

    @Override
    public String toString() {
        return super.toString().replace(")", ", components=" + count + ")");
    }
}
