package io.rill.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * A view: its own indexes over bytes of another buffer. Views never chain: a view of a view
 * points straight at the buffer that holds the memory ({@code root}) with the summed
 * adjustment, so every access is one hop however the view was derived.
 *
 * <p>Reference counting: a plain view uses the count of the buffer it was derived from
 * ({@code owner}); a retained view ({@code retainedSlice}, {@code retainedDuplicate}) has its
 * own count, kept in {@link #refCnt} by the {@link RefCount} algorithm, and releases
 * {@code owner} once when that count reaches zero.
 */
abstract class AbstractDerivedByteBuf extends AbstractByteBuf {

    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(AbstractDerivedByteBuf.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Holds the bytes; never itself a view. */
    final AbstractByteBuf root;
    /** Index in {@code root} of this view's index 0. */
    final int adjustment;
    /** Whose count a plain view shares, or the buffer a retained view releases at zero. */
    final AbstractByteBuf owner;
    /** True for retained views, which count on their own. */
    private final boolean ownCount;
    /** Capacity of a slice, or -1 when the capacity follows the root's. */
    private final int fixedLength;
    /** capacity() <= maxCapacity, fixed for life (a slice's is its length). */
    private final int maxCapacity;
    /**
     * A retained view's own count: twice the number of owners while live, odd once released. A
     * plain view leaves it at one owner and checks its owner instead. Atomic updates via REF_CNT only.
     */
    private int refCnt = RefCount.ONE_OWNER;

    AbstractDerivedByteBuf(AbstractByteBuf parent, int index, int fixedLength, boolean retained) {
        int maxCapacity = fixedLength >= 0 ? fixedLength : parent.maxCapacity();
        if (maxCapacity < 0) {
            throw new IllegalArgumentException("maxCapacity: " + maxCapacity + " (expected: >= 0)");
        }
        this.maxCapacity = maxCapacity;
        this.root = parent.memoryRoot();
        this.adjustment = parent.memoryAdjustment() + index;
        this.owner = parent.countHolder();
        this.ownCount = retained;
        this.fixedLength = fixedLength;
    }

    /** The capacity a duplicate of {@code parent} gets: fixed if the parent's is, else following the root. */
    static int duplicateLength(AbstractByteBuf parent) {
        return parent.hasFixedCapacity() ? parent.capacity() : -1;
    }

    @Override
    final AbstractByteBuf memoryRoot() {
        return root;
    }

    @Override
    final int memoryAdjustment() {
        return adjustment;
    }

    @Override
    AbstractByteBuf countHolder() {
        return ownCount ? this : owner;
    }

    @Override
    final boolean hasFixedCapacity() {
        return fixedLength >= 0;
    }

    // ------------------------------------------------------------------ reference counting

    @Override
    public int refCnt() {
        return ownCount ? RefCount.owners(REF_CNT, this) : owner.refCnt();
    }

    /** True once a retained view's own count reached zero; a plain read (see {@link RefCount}). */
    @Override
    final boolean isReleased() {
        return (refCnt & 1) != 0;
    }

    @Override
    public ByteBuf retain() {
        return retain(1);
    }

    @Override
    public ByteBuf retain(int increment) {
        if (ownCount) {
            RefCount.checkIncrement(increment);
            RefCount.retain(REF_CNT, this, increment);
        } else {
            owner.retain(increment);
        }
        return this;
    }

    @Override
    public boolean release() {
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        if (!ownCount) {
            return owner.release(decrement);
        }
        RefCount.checkDecrement(decrement);
        if (RefCount.release(REF_CNT, this, decrement)) {
            owner.release();
            return true;
        }
        return false;
    }

    @Override
    void ensureAccessible() {
        if (ownCount) {
            super.ensureAccessible();
        } else {
            owner.ensureAccessible();
        }
    }

    @Override
    public int maxCapacity() {
        return maxCapacity;
    }

    // ------------------------------------------------------------------ identity

    @Override
    public int capacity() {
        return fixedLength >= 0 ? fixedLength : root.capacity() - adjustment;
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        if (fixedLength >= 0 || adjustment != 0) {
            throw new UnsupportedOperationException("cannot change the capacity of a slice");
        }
        checkNewCapacity(newCapacity);
        root.capacity(newCapacity);
        trimIndexesTo(newCapacity);
        return this;
    }

    @Override
    public ByteBufAllocator alloc() {
        return root.alloc();
    }

    @Override
    public ByteBuf unwrap() {
        return root;
    }

    @Override
    public boolean isDirect() {
        return root.isDirect();
    }

    // ------------------------------------------------------------------ memory, shifted

    @Override
    byte _getByte(int index) {
        return root._getByte(index + adjustment);
    }

    @Override
    short _getShort(int index) {
        return root._getShort(index + adjustment);
    }

    @Override
    short _getShortLE(int index) {
        return root._getShortLE(index + adjustment);
    }

    @Override
    int _getMedium(int index) {
        return root._getMedium(index + adjustment);
    }

    @Override
    int _getMediumLE(int index) {
        return root._getMediumLE(index + adjustment);
    }

    @Override
    int _getInt(int index) {
        return root._getInt(index + adjustment);
    }

    @Override
    int _getIntLE(int index) {
        return root._getIntLE(index + adjustment);
    }

    @Override
    long _getLong(int index) {
        return root._getLong(index + adjustment);
    }

    @Override
    long _getLongLE(int index) {
        return root._getLongLE(index + adjustment);
    }

    @Override
    void _setByte(int index, int value) {
        root._setByte(index + adjustment, value);
    }

    @Override
    void _setShort(int index, int value) {
        root._setShort(index + adjustment, value);
    }

    @Override
    void _setShortLE(int index, int value) {
        root._setShortLE(index + adjustment, value);
    }

    @Override
    void _setMedium(int index, int value) {
        root._setMedium(index + adjustment, value);
    }

    @Override
    void _setMediumLE(int index, int value) {
        root._setMediumLE(index + adjustment, value);
    }

    @Override
    void _setInt(int index, int value) {
        root._setInt(index + adjustment, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        root._setIntLE(index + adjustment, value);
    }

    @Override
    void _setLong(int index, long value) {
        root._setLong(index + adjustment, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        root._setLongLE(index + adjustment, value);
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        checkIndex(index, length);
        root.getBytes(index + adjustment, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        checkIndex(index, length);
        root.getBytes(index + adjustment, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        checkIndex(index, dst.remaining());
        root.getBytes(index + adjustment, dst);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        checkIndex(index, length);
        root.setBytes(index + adjustment, src, srcIndex, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        checkIndex(index, length);
        root.setBytes(index + adjustment, src, srcIndex, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        checkIndex(index, src.remaining());
        root.setBytes(index + adjustment, src);
        return this;
    }

    @Override
    public int nioBufferCount() {
        return root.nioBufferCount();
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        return root.nioBuffer(index + adjustment, length);
    }

    @Override
    public ByteBuffer ioView(int index, int length, int slot) {
        checkIndex(index, length);
        return root.ioView(index + adjustment, length, slot);
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        checkIndex(index, length);
        return root.nioBuffers(index + adjustment, length);
    }

    @Override
    public boolean hasArray() {
        return root.hasArray();
    }

    @Override
    public byte[] array() {
        return root.array();
    }

    @Override
    public int arrayOffset() {
        return root.arrayOffset() + adjustment;
    }
}
