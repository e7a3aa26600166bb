package io.rill.buffer;

import static io.rill.buffer.IndexChecks.isOutOfBounds;
import static io.rill.buffer.IndexChecks.notReadable;
import static io.rill.buffer.IndexChecks.outside;

import io.rill.util.RillProperties;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.Charset;

/**
 * Everything a buffer does in terms of a few memory primitives ({@code _getXxx}/{@code
 * _setXxx} at an index already checked) and the six bulk copies each backing implements.
 * Holds the indexes; the reference count and maximum capacity live where each kind keeps them
 * (retained views and composites in a field of their own, the recyclable {@link MemoryRegion}
 * for buffers that own memory, all through {@link RefCount}), so the object made per socket read
 * stays small. Views are made by {@link ByteBufViews}, so this class names none of them.
 */
abstract class AbstractByteBuf extends ByteBuf {

    /** 0 <= readerIndex <= writerIndex. */
    int readerIndex;
    /** readerIndex <= writerIndex <= capacity(). */
    int writerIndex;

    // ------------------------------------------------------------------ primitives

    abstract byte _getByte(int index);

    abstract short _getShort(int index);

    abstract short _getShortLE(int index);

    abstract int _getInt(int index);

    abstract int _getIntLE(int index);

    abstract long _getLong(int index);

    abstract long _getLongLE(int index);

    abstract void _setByte(int index, int value);

    abstract void _setShort(int index, int value);

    abstract void _setShortLE(int index, int value);

    abstract void _setInt(int index, int value);

    abstract void _setIntLE(int index, int value);

    abstract void _setLong(int index, long value);

    abstract void _setLongLE(int index, long value);

    int _getMedium(int index) {
        return (_getShort(index) & 0xffff) << 8 | _getByte(index + 2) & 0xff;
    }

    int _getMediumLE(int index) {
        return _getShortLE(index) & 0xffff | (_getByte(index + 2) & 0xff) << 16;
    }

    void _setMedium(int index, int value) {
        _setShort(index, value >>> 8);
        _setByte(index + 2, value);
    }

    void _setMediumLE(int index, int value) {
        _setShortLE(index, value);
        _setByte(index + 2, value >>> 16);
    }

    /** The buffer whose primitives hold this buffer's bytes: itself unless this is a view. */
    AbstractByteBuf memoryRoot() {
        return this;
    }

    /** Index in {@link #memoryRoot()} of this buffer's index 0. */
    int memoryAdjustment() {
        return 0;
    }

    /** The buffer whose reference count this one uses: itself unless this is a plain view. */
    AbstractByteBuf countHolder() {
        return this;
    }

    /** True if the capacity can never change (slices). */
    boolean hasFixedCapacity() {
        return false;
    }

    /** True once the count reached zero; a plain read, so the JIT may hoist it out of loops. */
    abstract boolean isReleased();

    @Override
    public ByteBuf touch() {
        return this;
    }

    @Override
    public ByteBuf touch(Object hint) {
        return this;
    }

    /** Throws if the memory behind this buffer was released. */
    void ensureAccessible() {
        if (RillProperties.BUFFER_CHECK_ACCESSIBLE && isReleased()) {
            throw new IllegalReferenceCountException(0);
        }
    }

    // ------------------------------------------------------------------ checks

    /**
     * The bound index checks compare against: the capacity, or -1 once released. Buffers owning
     * their memory keep it in a field, so one load and one branch also catch use after release.
     */
    int accessLimit() {
        ensureAccessible();
        return capacity();
    }

    final void checkIndex(int index, int length) {
        if (!RillProperties.BUFFER_CHECK_BOUNDS) {
            ensureAccessible();
        } else if (isOutOfBounds(index, length, accessLimit())) {
            throw accessFailure(index, length);
        }
    }

    /**
     * {@link #checkIndex} for sizes 1 to 8: two compares, a shape the JIT removes from counted loops.
     * Returns {@code index}, so an accessor checks and reads in one expression, as
     * {@link #advanceReader} lets the relative ones do.
     */
    final int checkPrimitive(int index, int size) {
        if (!RillProperties.BUFFER_CHECK_BOUNDS) {
            ensureAccessible();
        } else if (index < 0 || index > accessLimit() - size) {
            throw accessFailure(index, size);
        }
        return index;
    }

    /** A released buffer says so; otherwise the range was wrong. */
    private RuntimeException accessFailure(int index, int length) {
        ensureAccessible();
        return new IndexOutOfBoundsException(outside("", index, length, capacity()));
    }

    final void checkReadable(int length) {
        ensureAccessible();
        if (RillProperties.BUFFER_CHECK_BOUNDS && (length < 0 || readerIndex > writerIndex - length)) {
            throw new IndexOutOfBoundsException(notReadable(this, length));
        }
    }

    final void ensureWritable0(int minWritableBytes) {
        ensureAccessible();
        if (isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        int writable = capacity() - writerIndex;
        if (minWritableBytes <= writable && minWritableBytes >= 0) {
            return;
        }
        if (minWritableBytes < 0) {
            throw new IndexOutOfBoundsException("minWritableBytes: " + minWritableBytes + " (expected: >= 0)");
        }
        int maxCapacity = maxCapacity();
        if (minWritableBytes > maxCapacity - writerIndex) {
            throw new IndexOutOfBoundsException("cannot write " + minWritableBytes + " bytes at writerIndex "
                    + writerIndex + ": maxCapacity " + maxCapacity + " leaves room for " + (maxCapacity - writerIndex)
                    + " in " + this);
        }
        capacity(alloc().calculateNewCapacity(writerIndex + minWritableBytes, maxCapacity));
    }

    final void checkNewCapacity(int newCapacity) {
        ensureAccessible();
        int maxCapacity = maxCapacity();
        if (newCapacity < 0 || newCapacity > maxCapacity) {
            throw new IllegalArgumentException(
                    "newCapacity: " + newCapacity + " (expected: 0-" + maxCapacity + ")");
        }
    }

    /** After the capacity shrank: pull the indexes inside it. */
    final void trimIndexesTo(int newCapacity) {
        if (writerIndex > newCapacity) {
            writerIndex = newCapacity;
            readerIndex = Math.min(readerIndex, newCapacity);
        }
    }

    // ------------------------------------------------------------------ identity and indexes

    @Override
    public boolean isReadOnly() {
        return false;
    }

    @Override
    public ByteBuf asReadOnly() {
        return isReadOnly() ? this : ByteBufViews.readOnly(this);
    }

    @Override
    public int readerIndex() {
        return readerIndex;
    }

    @Override
    public ByteBuf readerIndex(int readerIndex) {
        if (RillProperties.BUFFER_CHECK_BOUNDS && (readerIndex < 0 || readerIndex > writerIndex)) {
            throw new IndexOutOfBoundsException("readerIndex " + readerIndex + " is outside [0, writerIndex "
                    + writerIndex + ']');
        }
        this.readerIndex = readerIndex;
        return this;
    }

    @Override
    public int writerIndex() {
        return writerIndex;
    }

    @Override
    public ByteBuf writerIndex(int writerIndex) {
        if (RillProperties.BUFFER_CHECK_BOUNDS && (writerIndex < readerIndex || writerIndex > capacity())) {
            throw new IndexOutOfBoundsException("writerIndex " + writerIndex + " is outside [readerIndex "
                    + readerIndex + ", capacity " + capacity() + ']');
        }
        this.writerIndex = writerIndex;
        return this;
    }

    @Override
    public ByteBuf setIndex(int readerIndex, int writerIndex) {
        if (RillProperties.BUFFER_CHECK_BOUNDS && (readerIndex < 0 || readerIndex > writerIndex || writerIndex > capacity())) {
            throw new IndexOutOfBoundsException("readerIndex " + readerIndex + " and writerIndex " + writerIndex
                    + " break 0 <= readerIndex <= writerIndex <= capacity " + capacity());
        }
        this.readerIndex = readerIndex;
        this.writerIndex = writerIndex;
        return this;
    }

    @Override
    public int readableBytes() {
        return writerIndex - readerIndex;
    }

    @Override
    public int writableBytes() {
        return capacity() - writerIndex;
    }

    @Override
    public int maxWritableBytes() {
        return maxCapacity() - writerIndex;
    }

    @Override
    public boolean isReadable() {
        return writerIndex > readerIndex;
    }

    @Override
    public boolean isReadable(int size) {
        return writerIndex - readerIndex >= size;
    }

    @Override
    public boolean isWritable() {
        return capacity() > writerIndex;
    }

    @Override
    public boolean isWritable(int size) {
        return capacity() - writerIndex >= size;
    }

    @Override
    public ByteBuf clear() {
        readerIndex = writerIndex = 0;
        return this;
    }

    @Override
    public ByteBuf discardReadBytes() {
        ensureAccessible();
        if (readerIndex == 0) {
            return this;
        }
        if (readerIndex != writerIndex) {
            setBytes(0, this, readerIndex, writerIndex - readerIndex);
        }
        writerIndex -= readerIndex;
        readerIndex = 0;
        return this;
    }

    @Override
    public ByteBuf discardSomeReadBytes() {
        ensureAccessible();
        if (readerIndex > 0 && (readerIndex == writerIndex || readerIndex >= capacity() >>> 1)) {
            discardReadBytes();
        }
        return this;
    }

    @Override
    public ByteBuf ensureWritable(int minWritableBytes) {
        ensureWritable0(minWritableBytes);
        return this;
    }

    // ------------------------------------------------------------------ get

    @Override
    public byte getByte(int index) {
        return _getByte(checkPrimitive(index, 1));
    }

    @Override
    public short getShort(int index) {
        return _getShort(checkPrimitive(index, 2));
    }

    @Override
    public short getShortLE(int index) {
        return _getShortLE(checkPrimitive(index, 2));
    }

    @Override
    public int getUnsignedMedium(int index) {
        return _getMedium(checkPrimitive(index, 3));
    }

    @Override
    public int getUnsignedMediumLE(int index) {
        return _getMediumLE(checkPrimitive(index, 3));
    }

    @Override
    public int getInt(int index) {
        return _getInt(checkPrimitive(index, 4));
    }

    @Override
    public int getIntLE(int index) {
        return _getIntLE(checkPrimitive(index, 4));
    }

    @Override
    public long getLong(int index) {
        return _getLong(checkPrimitive(index, 8));
    }

    @Override
    public long getLongLE(int index) {
        return _getLongLE(checkPrimitive(index, 8));
    }

    // ------------------------------------------------------------------ set

    @Override
    public ByteBuf setByte(int index, int value) {
        _setByte(checkPrimitive(index, 1), value);
        return this;
    }

    @Override
    public ByteBuf setShort(int index, int value) {
        _setShort(checkPrimitive(index, 2), value);
        return this;
    }

    @Override
    public ByteBuf setShortLE(int index, int value) {
        _setShortLE(checkPrimitive(index, 2), value);
        return this;
    }

    @Override
    public ByteBuf setMedium(int index, int value) {
        _setMedium(checkPrimitive(index, 3), value);
        return this;
    }

    @Override
    public ByteBuf setMediumLE(int index, int value) {
        _setMediumLE(checkPrimitive(index, 3), value);
        return this;
    }

    @Override
    public ByteBuf setInt(int index, int value) {
        _setInt(checkPrimitive(index, 4), value);
        return this;
    }

    @Override
    public ByteBuf setIntLE(int index, int value) {
        _setIntLE(checkPrimitive(index, 4), value);
        return this;
    }

    @Override
    public ByteBuf setLong(int index, long value) {
        _setLong(checkPrimitive(index, 8), value);
        return this;
    }

    @Override
    public ByteBuf setLongLE(int index, long value) {
        _setLongLE(checkPrimitive(index, 8), value);
        return this;
    }

    @Override
    public ByteBuf setZero(int index, int length) {
        checkIndex(index, length);
        int i = index;
        int end = index + length;
        for (; i + 8 <= end; i += 8) {
            _setLong(i, 0);
        }
        for (; i < end; i++) {
            _setByte(i, 0);
        }
        return this;
    }

    // ------------------------------------------------------------------ read

    /** Checks that {@code length} bytes are readable, advances past them and returns where they start. */
    final int advanceReader(int length) {
        checkReadable(length);
        int index = readerIndex;
        readerIndex = index + length;
        return index;
    }

    /** Grows if needed, advances past {@code length} bytes and returns where they start. */
    final int advanceWriter(int length) {
        ensureWritable0(length);
        int index = writerIndex;
        writerIndex = index + length;
        return index;
    }

    @Override
    public byte readByte() {
        return _getByte(advanceReader(1));
    }

    @Override
    public short readShort() {
        return _getShort(advanceReader(2));
    }

    @Override
    public short readShortLE() {
        return _getShortLE(advanceReader(2));
    }

    @Override
    public int readUnsignedMedium() {
        return _getMedium(advanceReader(3));
    }

    @Override
    public int readUnsignedMediumLE() {
        return _getMediumLE(advanceReader(3));
    }

    @Override
    public int readInt() {
        return _getInt(advanceReader(4));
    }

    @Override
    public int readIntLE() {
        return _getIntLE(advanceReader(4));
    }

    @Override
    public long readLong() {
        return _getLong(advanceReader(8));
    }

    @Override
    public long readLongLE() {
        return _getLongLE(advanceReader(8));
    }

    @Override
    public ByteBuf readBytes(int length) {
        checkReadable(length);
        ByteBuf copy = copy(readerIndex, length);
        readerIndex += length;
        return copy;
    }

    @Override
    public ByteBuf readSlice(int length) {
        checkReadable(length);
        ByteBuf slice = slice(readerIndex, length);
        readerIndex += length;
        return slice;
    }

    @Override
    public ByteBuf readRetainedSlice(int length) {
        checkReadable(length);
        ByteBuf slice = retainedSlice(readerIndex, length);
        readerIndex += length;
        return slice;
    }

    @Override
    public ByteBuf skipBytes(int length) {
        advanceReader(length);
        return this;
    }

    // ------------------------------------------------------------------ write

    @Override
    public ByteBuf writeByte(int value) {
        _setByte(advanceWriter(1), value);
        return this;
    }

    @Override
    public ByteBuf writeShort(int value) {
        _setShort(advanceWriter(2), value);
        return this;
    }

    @Override
    public ByteBuf writeShortLE(int value) {
        _setShortLE(advanceWriter(2), value);
        return this;
    }

    @Override
    public ByteBuf writeMedium(int value) {
        _setMedium(advanceWriter(3), value);
        return this;
    }

    @Override
    public ByteBuf writeMediumLE(int value) {
        _setMediumLE(advanceWriter(3), value);
        return this;
    }

    @Override
    public ByteBuf writeInt(int value) {
        _setInt(advanceWriter(4), value);
        return this;
    }

    @Override
    public ByteBuf writeIntLE(int value) {
        _setIntLE(advanceWriter(4), value);
        return this;
    }

    @Override
    public ByteBuf writeLong(long value) {
        _setLong(advanceWriter(8), value);
        return this;
    }

    @Override
    public ByteBuf writeLongLE(long value) {
        _setLongLE(advanceWriter(8), value);
        return this;
    }

    @Override
    public ByteBuf writeZero(int length) {
        ensureWritable0(length);
        setZero(writerIndex, length);
        writerIndex += length;
        return this;
    }

    @Override
    public int setCharSequence(int index, CharSequence sequence, Charset charset) {
        return ByteBufText.setCharSequence(this, index, sequence, charset, false);
    }

    @Override
    public int writeCharSequence(CharSequence sequence, Charset charset) {
        int written = ByteBufText.setCharSequence(this, writerIndex, sequence, charset, true);
        writerIndex += written;
        return written;
    }

    // ------------------------------------------------------------------ search

    @Override
    public int bytesBefore(int index, int length, byte value) {
        checkIndex(index, length);
        int found = forEachByte(index, length, ByteProcessor.find(value));
        return found < 0 ? -1 : found - index;
    }

    @Override
    public int forEachByte(int index, int length, ByteProcessor processor) {
        checkIndex(index, length);
        int end = index + length;
        for (int i = index; i < end; i++) {
            if (!processor.process(_getByte(i))) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public int forEachByteDesc(int index, int length, ByteProcessor processor) {
        checkIndex(index, length);
        for (int i = index + length - 1; i >= index; i--) {
            if (!processor.process(_getByte(i))) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------ copies and views

    @Override
    public ByteBuf copy(int index, int length) {
        checkIndex(index, length);
        ByteBuf copy = isDirect() ? alloc().directBuffer(length, maxCapacity())
                                  : alloc().heapBuffer(length, maxCapacity());
        return copy.writeBytes(this, index, length);
    }

    @Override
    public ByteBuf slice(int index, int length) {
        checkIndex(index, length);
        return ByteBufViews.slice(this, index, length, false);
    }

    @Override
    public ByteBuf retainedSlice(int index, int length) {
        checkIndex(index, length);
        retain();
        return ByteBufViews.slice(this, index, length, true);
    }

    @Override
    public ByteBuf duplicate() {
        ensureAccessible();
        return ByteBufViews.duplicate(this, false);
    }

    @Override
    public ByteBuf retainedDuplicate() {
        ensureAccessible();
        retain();
        return ByteBufViews.duplicate(this, true);
    }

    // ------------------------------------------------------------------ text and identity

    @Override
    public String toString() {
        if (refCnt() == 0) {
            return getClass().getSimpleName() + "(freed)";
        }
        return getClass().getSimpleName() + "(ridx: " + readerIndex + ", widx: " + writerIndex
                + ", cap: " + capacity() + "/" + maxCapacity() + ')';
    }
}
