package io.rill.buffer;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The components of a {@link CompositeByteBuf}: their order and cumulative offsets, the lookup
 * of the component holding a composite index, and access to bytes that may span components.
 * The composite keeps the indexes, the reference count and the checks; this class keeps the
 * offsets consistent and releases the buffers it drops.
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
 * Every index passed in was checked by the composite to lie within its capacity.
 */
final class ComponentList {

    /** One part: buf's bytes [offset + adjustment, endOffset + adjustment) are the composite's [offset, endOffset). */
    static final class Component {
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

    /** Called for each part of a range that spans components; see {@link #forEachPart}. */
    interface PartCopier {
        void copy(Component c, int bufIndex, int done, int n);
    }

    /** components[0..count) with components[i].endOffset == components[i + 1].offset. */
    private Component[] components;
    private int count;
    /** The component last found by {@link #find}; null when invalidated. */
    private Component last;

    ComponentList(int initialLength) {
        components = new Component[initialLength];
    }

    int count() {
        return count;
    }

    Component get(int cIndex) {
        return components[cIndex];
    }

    /** {@return the end offset of the last component: the composite's capacity} */
    int capacity() {
        return count == 0 ? 0 : components[count - 1].endOffset;
    }

    /** {@return true if every component's buffer is direct (also when there are none)} */
    boolean allDirect() {
        for (int i = 0; i < count; i++) {
            if (!components[i].buf.isDirect()) {
                return false;
            }
        }
        return true;
    }

    /** {@return the number of NIO buffers the components expose together} */
    int nioBufferCount() {
        int n = 0;
        for (int i = 0; i < count; i++) {
            n += components[i].buf.nioBufferCount();
        }
        return n;
    }

    /** Inserts {@code buf}'s {@code length} readable bytes as component {@code cIndex}; later ones move up. */
    void add(int cIndex, ByteBuf buf, int length) {
        int offset = cIndex == 0 ? 0 : components[cIndex - 1].endOffset;
        insert(cIndex, new Component(buf, buf.readerIndex() - offset, offset, offset + length));
        shiftOffsets(cIndex + 1, length);
    }

    /** Releases and drops components {@code [cIndex, cIndex + n)}, {@code n >= 1}; later ones move down. */
    void remove(int cIndex, int n) {
        int removedBytes = components[cIndex + n - 1].endOffset - components[cIndex].offset;
        for (int i = cIndex; i < cIndex + n; i++) {
            components[i].buf.release();
        }
        System.arraycopy(components, cIndex + n, components, cIndex, count - cIndex - n);
        Arrays.fill(components, count - n, count, null);
        count -= n;
        shiftOffsets(cIndex, -removedBytes);
    }

    /** Copies components {@code [cIndex, cIndex + n)} into {@code merged}, releases them and puts it in their place. */
    void consolidate(int cIndex, int n, ByteBuf merged) {
        int start = components[cIndex].offset;
        int end = components[cIndex + n - 1].endOffset;
        for (int i = cIndex; i < cIndex + n; i++) {
            Component c = components[i];
            merged.writeBytes(c.buf, c.offset + c.adjustment, c.length());
            c.buf.release();
        }
        components[cIndex] = new Component(merged, -start, start, end);
        int removed = n - 1;
        System.arraycopy(components, cIndex + n, components, cIndex + 1, count - cIndex - n);
        Arrays.fill(components, count - removed, count, null);
        count -= removed;
        last = null;
    }

    /** Cuts the last component short so the capacity becomes {@code newCapacity}. */
    void truncateLast(int newCapacity) {
        if (count > 0) {
            components[count - 1].endOffset = newCapacity;
        }
        last = null;
    }

    /**
     * Drops the first {@code discard} bytes: releases the components wholly inside them, trims the
     * first partly inside them, and moves every offset down. Copies nothing.
     */
    void discardFirst(int discard) {
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
    }

    /** Releases every component and empties the list. */
    void releaseAll() {
        for (int i = 0; i < count; i++) {
            components[i].buf.release();
        }
        Arrays.fill(components, 0, count, null);
        count = 0;
        last = null;
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
    Component find(int index) {
        Component c = last;
        if (c != null && index >= c.offset && index < c.endOffset) {
            return c;
        }
        c = components[findIndex(index)];
        last = c;
        return c;
    }

    /** Binary search over the cumulative offsets. */
    int findIndex(int index) {
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

    // ------------------------------------------------------------------ bytes across components

    byte getByte(int index) {
        Component c = find(index);
        return c.buf.getByte(index + c.adjustment);
    }

    /** A value that straddles two components is assembled from its halves, big-endian. */
    short getShort(int index) {
        Component c = find(index);
        if (index + 2 <= c.endOffset) {
            return c.buf.getShort(index + c.adjustment);
        }
        return (short) ((getByte(index) & 0xff) << 8 | getByte(index + 1) & 0xff);
    }

    int getInt(int index) {
        Component c = find(index);
        if (index + 4 <= c.endOffset) {
            return c.buf.getInt(index + c.adjustment);
        }
        return (getShort(index) & 0xffff) << 16 | getShort(index + 2) & 0xffff;
    }

    long getLong(int index) {
        Component c = find(index);
        if (index + 8 <= c.endOffset) {
            return c.buf.getLong(index + c.adjustment);
        }
        return (getInt(index) & 0xffffffffL) << 32 | getInt(index + 4) & 0xffffffffL;
    }

    void setByte(int index, int value) {
        Component c = find(index);
        c.buf.setByte(index + c.adjustment, value);
    }

    /** A value that straddles two components is stored as its halves, big-endian. */
    void setShort(int index, int value) {
        Component c = find(index);
        if (index + 2 <= c.endOffset) {
            c.buf.setShort(index + c.adjustment, value);
        } else {
            setByte(index, value >>> 8);
            setByte(index + 1, value);
        }
    }

    void setInt(int index, int value) {
        Component c = find(index);
        if (index + 4 <= c.endOffset) {
            c.buf.setInt(index + c.adjustment, value);
        } else {
            setShort(index, value >>> 16);
            setShort(index + 2, value);
        }
    }

    void setLong(int index, long value) {
        Component c = find(index);
        if (index + 8 <= c.endOffset) {
            c.buf.setLong(index + c.adjustment, value);
        } else {
            setInt(index, (int) (value >>> 32));
            setInt(index + 4, (int) value);
        }
    }

    /**
     * {@link #forEachPart(int, int, PartCopier)} over {@code nio.remaining()} bytes, with the
     * limit of {@code nio} narrowed to each part so that a component copies exactly its share;
     * the limit is restored afterwards, even when a copy throws.
     */
    void forEachPart(int index, ByteBuffer nio, PartCopier copier) {
        int length = nio.remaining();
        int limit = nio.limit();
        try {
            forEachPart(index, length, (c, at, done, n) -> {
                nio.limit(nio.position() + n);
                copier.copy(c, at, done, n);
            });
        } finally {
            nio.limit(limit);
        }
    }

    /** Walks the components covering [index, index + length), calling back with each part. */
    void forEachPart(int index, int length, PartCopier copier) {
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

    /** Adds to {@code parts} a slice per component touched by [offset, offset + length), not retained. */
    void slices(int offset, int length, List<ByteBuf> parts) {
        int end = offset + length;
        for (int i = length == 0 ? count : findIndex(offset); i < count && offset < end; i++) {
            Component c = components[i];
            int n = Math.min(end, c.endOffset) - offset;
            parts.add(c.buf.slice(offset + c.adjustment, n));
            offset += n;
        }
    }
}
