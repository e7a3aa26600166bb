package io.rill.buffer;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;

/**
 * A view that refuses every write with {@link ReadOnlyBufferException}; its slices and
 * duplicates are read-only too, and it never exposes the backing array.
 */
final class ReadOnlyByteBuf extends AbstractDerivedByteBuf {

    ReadOnlyByteBuf(AbstractByteBuf parent) {
        super(parent, 0, duplicateLength(parent), false);
        readerIndex = parent.readerIndex();
        writerIndex = parent.writerIndex();
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf discardReadBytes() {
        throw new ReadOnlyBufferException();
    }

    @Override
    public int ensureWritable(int minWritableBytes, boolean force) {
        return minWritableBytes <= writableBytes() ? 0 : 1;
    }

    @Override
    void _setByte(int index, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    void _setShort(int index, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    void _setShortLE(int index, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    void _setMedium(int index, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    void _setMediumLE(int index, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    void _setInt(int index, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    void _setIntLE(int index, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    void _setLong(int index, long value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    void _setLongLE(int index, long value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf setZero(int index, int length) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        return super.nioBuffer(index, length).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer ioView(int index, int length, int slot) {
        return nioBuffer(index, length); // a shared writable view must not leak out of a read-only buffer
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        ByteBuffer[] buffers = super.nioBuffers(index, length);
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = buffers[i].asReadOnlyBuffer();
        }
        return buffers;
    }

    @Override
    public boolean hasArray() {
        return false;
    }

    @Override
    public byte[] array() {
        throw new ReadOnlyBufferException();
    }

    @Override
    public int arrayOffset() {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf slice(int index, int length) {
        return ByteBufViews.readOnly((AbstractByteBuf) super.slice(index, length));
    }

    @Override
    public ByteBuf retainedSlice(int index, int length) {
        return ByteBufViews.readOnly((AbstractByteBuf) super.retainedSlice(index, length));
    }

    @Override
    public ByteBuf duplicate() {
        ensureAccessible();
        return ByteBufViews.readOnly(this);
    }

    @Override
    public ByteBuf retainedDuplicate() {
        return ByteBufViews.readOnly((AbstractByteBuf) super.retainedDuplicate());
    }
}
