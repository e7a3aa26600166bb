package io.rill.buffer;

import static io.rill.buffer.IndexChecks.checkRange;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;

import io.rill.util.concurrent.FastThreadLocal;

/**
 * A buffer backed by a direct {@link ByteBuffer}: its own (unpooled) or a region of a pooled
 * direct chunk. Accesses use absolute {@code ByteBuffer} methods and byte-buffer view
 * {@link VarHandle}s on the shared memory object, so a pooled buffer needs no per-buffer
 * {@code ByteBuffer} slice and the memory object's position and limit never change.
 */
final class DirectByteBuf extends AbstractMemoryByteBuf<ByteBuffer> {

    private static final VarHandle SHORT = MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT_LE = MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** An unpooled buffer over all of {@code memory} (its position and limit are ignored). */
    DirectByteBuf(ByteBufAllocator alloc, ByteBuffer memory, int maxCapacity) {
        super(new MemoryRegion<>(alloc, maxCapacity));
        region.initUnpooled(memory, memory.capacity());
    }

    /** A buffer whose memory the pool fills in through {@link #init}. */
    DirectByteBuf(ByteBufAllocator alloc, int maxCapacity) {
        super(new MemoryRegion<>(alloc, maxCapacity));
    }

    /** A buffer over a region the pool already filled in. */
    DirectByteBuf(MemoryRegion<ByteBuffer> region) {
        super(region);
    }

    @Override
    ByteBuffer newMemory(int capacity) {
        return ByteBuffer.allocateDirect(capacity);
    }

    @Override
    void copyMemory(ByteBuffer src, int srcOffset, ByteBuffer dst, int dstOffset, int length) {
        dst.put(dstOffset, src, srcOffset, length);
    }

    @Override
    public boolean isDirect() {
        return true;
    }

    @Override
    byte _getByte(int index) {
        MemoryRegion<ByteBuffer> r = region;
        return r.memory.get(r.offset + index);
    }

    @Override
    short _getShort(int index) {
        MemoryRegion<ByteBuffer> r = region;
        return (short) SHORT.get(r.memory, r.offset + index);
    }

    @Override
    short _getShortLE(int index) {
        MemoryRegion<ByteBuffer> r = region;
        return (short) SHORT_LE.get(r.memory, r.offset + index);
    }

    @Override
    int _getInt(int index) {
        MemoryRegion<ByteBuffer> r = region;
        return (int) INT.get(r.memory, r.offset + index);
    }

    @Override
    int _getIntLE(int index) {
        MemoryRegion<ByteBuffer> r = region;
        return (int) INT_LE.get(r.memory, r.offset + index);
    }

    @Override
    long _getLong(int index) {
        MemoryRegion<ByteBuffer> r = region;
        return (long) LONG.get(r.memory, r.offset + index);
    }

    @Override
    long _getLongLE(int index) {
        MemoryRegion<ByteBuffer> r = region;
        return (long) LONG_LE.get(r.memory, r.offset + index);
    }

    @Override
    void _setByte(int index, int value) {
        MemoryRegion<ByteBuffer> r = region;
        r.memory.put(r.offset + index, (byte) value);
    }

    @Override
    void _setShort(int index, int value) {
        MemoryRegion<ByteBuffer> r = region;
        SHORT.set(r.memory, r.offset + index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        MemoryRegion<ByteBuffer> r = region;
        SHORT_LE.set(r.memory, r.offset + index, (short) value);
    }

    @Override
    void _setInt(int index, int value) {
        MemoryRegion<ByteBuffer> r = region;
        INT.set(r.memory, r.offset + index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        MemoryRegion<ByteBuffer> r = region;
        INT_LE.set(r.memory, r.offset + index, value);
    }

    @Override
    void _setLong(int index, long value) {
        MemoryRegion<ByteBuffer> r = region;
        LONG.set(r.memory, r.offset + index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        MemoryRegion<ByteBuffer> r = region;
        LONG_LE.set(r.memory, r.offset + index, value);
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        MemoryRegion<ByteBuffer> r = region;
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.capacity());
        if (dst.hasArray()) {
            r.memory.get(r.offset + index, dst.array(), dst.arrayOffset() + dstIndex, length);
        } else if (dst instanceof DirectByteBuf direct) {
            direct.checkIndex(dstIndex, length);
            MemoryRegion<ByteBuffer> d = direct.region;
            d.memory.put(d.offset + dstIndex, r.memory, r.offset + index, length); // absolute: no slice object
        } else {
            dst.setBytes(dstIndex, r.memory.slice(r.offset + index, length));
        }
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        MemoryRegion<ByteBuffer> r = region;
        checkIndex(index, length);
        checkRange("dst", dstIndex, length, dst.length);
        r.memory.get(r.offset + index, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        MemoryRegion<ByteBuffer> r = region;
        int length = dst.remaining();
        checkIndex(index, length);
        int position = dst.position();
        dst.put(position, r.memory, r.offset + index, length);
        dst.position(position + length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        MemoryRegion<ByteBuffer> r = region;
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.capacity());
        if (src.hasArray()) {
            r.memory.put(r.offset + index, src.array(), src.arrayOffset() + srcIndex, length);
        } else {
            // The source copies into this buffer the way it knows best: a read-only heap view
            // hides its array but hands over its bytes without a ByteBuffer slice per call.
            src.getBytes(srcIndex, this, index, length);
        }
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        MemoryRegion<ByteBuffer> r = region;
        checkIndex(index, length);
        checkRange("src", srcIndex, length, src.length);
        r.memory.put(r.offset + index, src, srcIndex, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        MemoryRegion<ByteBuffer> r = region;
        int length = src.remaining();
        checkIndex(index, length);
        int position = src.position();
        r.memory.put(r.offset + index, src, position, length);
        src.position(position + length);
        return this;
    }

    /**
     * Channel reads and writes go through a per-thread duplicate of the memory they touch,
     * positioned for the call, instead of a new slice per call: on an event loop that is one
     * ByteBuffer per pooled chunk instead of one per read and per write. The duplicate keeps the
     * last memory seen reachable until the thread touches another, which for pooled chunks
     * (long-lived anyway) costs nothing.
     */
    private static final FastThreadLocal<ChannelView> CHANNEL_VIEW = new FastThreadLocal<>() {
        @Override
        protected ChannelView initialValue() {
            return new ChannelView();
        }
    };

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        MemoryRegion<ByteBuffer> r = region;
        checkIndex(index, length);
        return in.read(CHANNEL_VIEW.get().of(r.memory, r.offset + index, length));
    }

    @Override
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        MemoryRegion<ByteBuffer> r = region;
        checkIndex(index, length);
        return out.write(CHANNEL_VIEW.get().of(r.memory, r.offset + index, length));
    }

    /** The thread's duplicate of the memory it last did channel I/O with. */
    private static final class ChannelView {
        private ByteBuffer source;
        private ByteBuffer view;

        ByteBuffer of(ByteBuffer memory, int start, int length) {
            if (source != memory) {
                source = memory;
                view = memory.duplicate();
            }
            view.clear();
            view.position(start).limit(start + length);
            return view;
        }
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        MemoryRegion<ByteBuffer> r = region;
        checkIndex(index, length);
        return r.memory.slice(r.offset + index, length);
    }

    @Override
    public ByteBuffer ioView(int index, int length, int slot) {
        MemoryRegion<ByteBuffer> r = region;
        checkIndex(index, length);
        return ThreadIoViews.direct(r.memory, r.offset + index, length, slot);
    }

    @Override
    public boolean hasArray() {
        return false;
    }

    @Override
    public byte[] array() {
        throw new UnsupportedOperationException("direct buffer");
    }

    @Override
    public int arrayOffset() {
        throw new UnsupportedOperationException("direct buffer");
    }
}
