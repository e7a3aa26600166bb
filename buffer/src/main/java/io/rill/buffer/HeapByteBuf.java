package io.rill.buffer;

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
        super(alloc, maxCapacity);
        initUnpooled(array, array.length);
    }

    /** A buffer whose memory the pool fills in through {@link #init}. */
    HeapByteBuf(ByteBufAllocator alloc, int maxCapacity) {
        super(alloc, maxCapacity);
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
        return memory[offset + index];
    }

    @Override
    short _getShort(int index) {
        return (short) SHORT.get(memory, offset + index);
    }

    @Override
    short _getShortLE(int index) {
        return (short) SHORT_LE.get(memory, offset + index);
    }

    @Override
    int _getInt(int index) {
        return (int) INT.get(memory, offset + index);
    }

    @Override
    int _getIntLE(int index) {
        return (int) INT_LE.get(memory, offset + index);
    }

    @Override
    long _getLong(int index) {
        return (long) LONG.get(memory, offset + index);
    }

    @Override
    long _getLongLE(int index) {
        return (long) LONG_LE.get(memory, offset + index);
    }

    @Override
    void _setByte(int index, int value) {
        memory[offset + index] = (byte) value;
    }

    @Override
    void _setShort(int index, int value) {
        SHORT.set(memory, offset + index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        SHORT_LE.set(memory, offset + index, (short) value);
    }

    @Override
    void _setInt(int index, int value) {
        INT.set(memory, offset + index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        INT_LE.set(memory, offset + index, value);
    }

    @Override
    void _setLong(int index, long value) {
        LONG.set(memory, offset + index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        LONG_LE.set(memory, offset + index, value);
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.capacity());
        dst.setBytes(dstIndex, memory, offset + index, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.length);
        System.arraycopy(memory, offset + index, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        int length = dst.remaining();
        checkIndex(index, length);
        dst.put(memory, offset + index, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.capacity());
        src.getBytes(srcIndex, memory, offset + index, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.length);
        System.arraycopy(src, srcIndex, memory, offset + index, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        int length = src.remaining();
        checkIndex(index, length);
        src.get(memory, offset + index, length);
        return this;
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        return ByteBuffer.wrap(memory, offset + index, length).slice();
    }

    @Override
    public ByteBuffer ioView(int index, int length, int slot) {
        checkIndex(index, length);
        return ThreadIoViews.heap(memory, offset + index, length, slot);
    }

    @Override
    public boolean hasArray() {
        return true;
    }

    @Override
    public byte[] array() {
        ensureAccessible();
        return memory;
    }

    @Override
    public int arrayOffset() {
        return offset;
    }
}
