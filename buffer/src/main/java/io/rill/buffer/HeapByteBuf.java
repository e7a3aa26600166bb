package io.rill.buffer;

import static io.rill.buffer.IndexChecks.checkRange;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A buffer backed by a {@code byte[]}: its own array (unpooled) or a region of a pooled heap
 * chunk. Multi-byte values go through byte-array view {@link VarHandle}s, which compile to
 * single (possibly unaligned) loads and stores, as fast as the JDK can access an array. Not final
 * only for {@link Unpooled#constantBuffer} (and the empty buffer), whose reference count is a constant.
 */
class HeapByteBuf extends AbstractMemoryByteBuf<byte[]> {

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** An unpooled buffer over {@code array} (not copied), with {@code capacity == array.length}. */
    HeapByteBuf(ByteBufAllocator alloc, byte[] array, int maxCapacity) {
        super(new MemoryRegion<>(alloc, maxCapacity));
        region.initUnpooled(array, array.length);
    }

    /** A buffer whose memory the pool fills in through {@link #init}. */
    HeapByteBuf(ByteBufAllocator alloc, int maxCapacity) {
        super(new MemoryRegion<>(alloc, maxCapacity));
    }

    /** A buffer over a region the pool already filled in. */
    HeapByteBuf(MemoryRegion<byte[]> region) {
        super(region);
    }

    @Override
    byte[] newMemory(int capacity) {
        return new byte[capacity];
    }

    @Override
    void copyMemory(byte[] src, int srcOffset, byte[] dst, int dstOffset, int length) {
        System.arraycopy(src, srcOffset, dst, dstOffset, length);
    }

    @Override
    public boolean isDirect() {
        return false;
    }

    @Override
    byte _getByte(int index) {
        MemoryRegion<byte[]> r = region;
        return r.memory[r.offset + index];
    }

    @Override
    short _getShort(int index) {
        MemoryRegion<byte[]> r = region;
        return (short) SHORT.get(r.memory, r.offset + index);
    }

    @Override
    short _getShortLE(int index) {
        MemoryRegion<byte[]> r = region;
        return (short) SHORT_LE.get(r.memory, r.offset + index);
    }

    @Override
    int _getInt(int index) {
        MemoryRegion<byte[]> r = region;
        return (int) INT.get(r.memory, r.offset + index);
    }

    @Override
    int _getIntLE(int index) {
        MemoryRegion<byte[]> r = region;
        return (int) INT_LE.get(r.memory, r.offset + index);
    }

    @Override
    long _getLong(int index) {
        MemoryRegion<byte[]> r = region;
        return (long) LONG.get(r.memory, r.offset + index);
    }

    @Override
    long _getLongLE(int index) {
        MemoryRegion<byte[]> r = region;
        return (long) LONG_LE.get(r.memory, r.offset + index);
    }

    @Override
    void _setByte(int index, int value) {
        MemoryRegion<byte[]> r = region;
        r.memory[r.offset + index] = (byte) value;
    }

    @Override
    void _setShort(int index, int value) {
        MemoryRegion<byte[]> r = region;
        SHORT.set(r.memory, r.offset + index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        MemoryRegion<byte[]> r = region;
        SHORT_LE.set(r.memory, r.offset + index, (short) value);
    }

    @Override
    void _setInt(int index, int value) {
        MemoryRegion<byte[]> r = region;
        INT.set(r.memory, r.offset + index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        MemoryRegion<byte[]> r = region;
        INT_LE.set(r.memory, r.offset + index, value);
    }

    @Override
    void _setLong(int index, long value) {
        MemoryRegion<byte[]> r = region;
        LONG.set(r.memory, r.offset + index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        MemoryRegion<byte[]> r = region;
        LONG_LE.set(r.memory, r.offset + index, value);
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        MemoryRegion<byte[]> r = region;
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.capacity());
        dst.setBytes(dstIndex, r.memory, r.offset + index, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        MemoryRegion<byte[]> r = region;
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.length);
        System.arraycopy(r.memory, r.offset + index, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        MemoryRegion<byte[]> r = region;
        int length = dst.remaining();
        checkIndex(index, length);
        dst.put(r.memory, r.offset + index, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        MemoryRegion<byte[]> r = region;
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.capacity());
        src.getBytes(srcIndex, r.memory, r.offset + index, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        MemoryRegion<byte[]> r = region;
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.length);
        System.arraycopy(src, srcIndex, r.memory, r.offset + index, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        MemoryRegion<byte[]> r = region;
        int length = src.remaining();
        checkIndex(index, length);
        src.get(r.memory, r.offset + index, length);
        return this;
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        MemoryRegion<byte[]> r = region;
        checkIndex(index, length);
        return ByteBuffer.wrap(r.memory, r.offset + index, length).slice();
    }

    @Override
    public ByteBuffer ioView(int index, int length, int slot) {
        MemoryRegion<byte[]> r = region;
        checkIndex(index, length);
        return ThreadIoViews.heap(r.memory, r.offset + index, length, slot);
    }

    @Override
    public boolean hasArray() {
        return true;
    }

    @Override
    public byte[] array() {
        MemoryRegion<byte[]> r = region;
        ensureAccessible();
        return r.memory;
    }

    @Override
    public int arrayOffset() {
        MemoryRegion<byte[]> r = region;
        return r.offset;
    }
}
