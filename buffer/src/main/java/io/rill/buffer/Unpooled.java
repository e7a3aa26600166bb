package io.rill.buffer;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;

/**
 * Creates unpooled buffers: fresh ones, views over existing arrays and {@link ByteBuffer}s
 * ({@code wrappedBuffer}, no copy), and copies ({@code copiedBuffer}). Buffers are from
 * {@link UnpooledByteBufAllocator#DEFAULT} but heap unless named {@code direct}.
 */
public final class Unpooled {

    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    /**
     * A shared empty buffer with capacity 0, returned wherever an empty buffer is due. Retaining
     * and releasing it do nothing, so any number of holders may release it any number of times:
     * a counted one would be freed after 2^30 releases, about a quarter of an hour of a busy HTTP
     * server answering with empty bodies.
     */
    public static final ByteBuf EMPTY_BUFFER = new ConstantByteBuf(new byte[0]);

    private Unpooled() {
    }

    /** {@return a new heap buffer} The caller owns it and must release it. */
    public static ByteBuf buffer() {
        return ALLOC.heapBuffer();
    }

    /**
     * {@return a new heap buffer} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     */
    public static ByteBuf buffer(int initialCapacity) {
        return ALLOC.heapBuffer(initialCapacity);
    }

    /**
     * {@return a new heap buffer} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     * @param maxCapacity the capacity it may grow to
     */
    public static ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return ALLOC.heapBuffer(initialCapacity, maxCapacity);
    }

    /** {@return a new direct buffer} The caller owns it and must release it. */
    public static ByteBuf directBuffer() {
        return ALLOC.directBuffer();
    }

    /**
     * {@return a new direct buffer} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     */
    public static ByteBuf directBuffer(int initialCapacity) {
        return ALLOC.directBuffer(initialCapacity);
    }

    /**
     * {@return a new direct buffer} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     * @param maxCapacity the capacity it may grow to
     */
    public static ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        return ALLOC.directBuffer(initialCapacity, maxCapacity);
    }

    /** {@return an empty heap composite} The caller owns it and must release it. */
    public static CompositeByteBuf compositeBuffer() {
        return ALLOC.compositeHeapBuffer();
    }

    /**
     * {@return an empty heap composite} The caller owns it and must release it.
     *
     * @param maxNumComponents the component count beyond which it consolidates
     */
    public static CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return ALLOC.compositeHeapBuffer(maxNumComponents);
    }

    /**
     * A buffer over {@code array} (not copied): readable from 0 to its length. Whoever owns the
     * buffer owns those bytes: a pipeline handed it may write into it (a decoder compacts and
     * appends in place), so wrap only an array you will not read or reuse afterwards, and copy
     * ({@link #copiedBuffer(byte[])}) otherwise.
     *
     * @param array the bytes, from now on owned by the buffer
     * @return the buffer; the caller owns it and must release it
     */
    public static ByteBuf wrappedBuffer(byte[] array) {
        return AbstractByteBufAllocator.toLeakAware(new HeapByteBuf(ALLOC, array, array.length).writerIndex(array.length));
    }

    /**
     * A buffer over {@code array[offset, offset + length)} (not copied; see {@link #wrappedBuffer(byte[])} on
     * ownership).
     *
     * @param array the bytes, from now on owned by the buffer
     * @param offset the first byte
     * @param length the number of bytes
     * @return the buffer; the caller owns it and must release it
     */
    public static ByteBuf wrappedBuffer(byte[] array, int offset, int length) {
        IndexChecks.checkRange("array", offset, length, array.length);
        if (offset == 0 && length == array.length) {
            return wrappedBuffer(array);
        }
        HeapByteBuf whole = new HeapByteBuf(ALLOC, array, array.length);
        return AbstractByteBufAllocator.toLeakAware(whole.retainedSlice(offset, length));
    }

    /**
     * A buffer over {@code buffer}'s remaining bytes (not copied; its position and limit are
     * left alone). A read-only heap {@code ByteBuffer} hides its array, so it is copied into a
     * read-only buffer instead.
     *
     * @param buffer the bytes
     * @return the buffer; the caller owns it and must release it
     */
    public static ByteBuf wrappedBuffer(ByteBuffer buffer) {
        int length = buffer.remaining();
        if (buffer.hasArray()) {
            return wrappedBuffer(buffer.array(), buffer.arrayOffset() + buffer.position(), length);
        }
        if (!buffer.isDirect()) {
            return copiedBuffer(buffer).asReadOnly();
        }
        ByteBuf wrapped = new DirectByteBuf(ALLOC, buffer.slice(), length).writerIndex(length);
        return AbstractByteBufAllocator.toLeakAware(buffer.isReadOnly() ? wrapped.asReadOnly() : wrapped);
    }

    /**
     * One composite over all arrays (not copied).
     *
     * @param arrays the byte arrays, from now on owned by the buffer
     * @return the composite; the caller owns it and must release it
     */
    public static ByteBuf wrappedBuffer(byte[]... arrays) {
        CompositeByteBuf composite = ALLOC.compositeHeapBuffer(Math.max(1, arrays.length));
        for (byte[] array : arrays) {
            composite.addComponent(true, wrappedBuffer(array));
        }
        return composite;
    }

    /**
     * One composite over all buffers' remaining bytes (not copied).
     *
     * @param buffers the byte buffers
     * @return the composite; the caller owns it and must release it
     */
    public static ByteBuf wrappedBuffer(ByteBuffer... buffers) {
        CompositeByteBuf composite = ALLOC.compositeHeapBuffer(Math.max(1, buffers.length));
        for (ByteBuffer buffer : buffers) {
            composite.addComponent(true, wrappedBuffer(buffer));
        }
        return composite;
    }

    /**
     * One composite over the readable bytes of {@code buffers}, which it takes ownership of
     * (releasing it releases them). A single buffer is returned as is.
     *
     * @param buffers the buffers; their ownership passes to the result
     * @return the composite, or the one buffer; the caller owns it and must release it
     */
    public static ByteBuf wrappedBuffer(ByteBuf... buffers) {
        if (buffers.length == 1) {
            return buffers[0];
        }
        CompositeByteBuf composite = ALLOC.compositeHeapBuffer(Math.max(1, buffers.length));
        return composite.addComponents(true, buffers);
    }

    /**
     * {@return a new heap buffer holding a copy of {@code array}} The caller owns it and must release it.
     *
     * @param array the bytes to copy
     */
    public static ByteBuf copiedBuffer(byte[] array) {
        return copiedBuffer(array, 0, array.length);
    }

    /**
     * {@return a new heap buffer holding a copy of {@code array[offset, offset + length)}} The caller owns it
     * and must release it.
     *
     * @param array the bytes to copy
     * @param offset the first byte
     * @param length the number of bytes
     */
    public static ByteBuf copiedBuffer(byte[] array, int offset, int length) {
        return buffer(length).writeBytes(array, offset, length);
    }

    /**
     * A copy of {@code buffer}'s remaining bytes; its position does not move.
     *
     * @param buffer the bytes to copy
     * @return the copy; the caller owns it and must release it
     */
    public static ByteBuf copiedBuffer(ByteBuffer buffer) {
        return buffer(buffer.remaining()).writeBytes(buffer.duplicate());
    }

    /**
     * A copy of {@code buf}'s readable bytes; its indexes do not move.
     *
     * @param buf the bytes to copy; the caller keeps ownership
     * @return the copy; the caller owns it and must release it
     */
    public static ByteBuf copiedBuffer(ByteBuf buf) {
        return buffer(buf.readableBytes()).writeBytes(buf, buf.readerIndex(), buf.readableBytes());
    }

    /**
     * {@code text} encoded in {@code charset}.
     *
     * @param text the characters
     * @param charset the encoding
     * @return the new buffer; the caller owns it and must release it
     */
    public static ByteBuf copiedBuffer(CharSequence text, Charset charset) {
        ByteBuf buf = buffer(text.length());
        buf.writeCharSequence(text, charset);
        return buf;
    }

    /**
     * A read-only buffer holding a copy of {@code bytes} that is never freed: retain and release do
     * nothing and it is not tracked for leaks. One such buffer can be the content of any number of
     * messages, sent from any thread, like a fixed response body. Its reader and writer indices
     * are shared by everyone who holds it, so code that is handed it must read at absolute indices
     * or through its own {@link ByteBuf#slice() slice} or {@link ByteBuf#duplicate() duplicate}
     * (Rill's encoders do); never move its indices.
     *
     * @param bytes the bytes to copy
     * @return the constant buffer; releasing it is allowed and does nothing
     */
    public static ByteBuf constantBuffer(byte[] bytes) {
        if (bytes.length == 0) {
            return EMPTY_BUFFER;
        }
        return new ConstantByteBuf(bytes.clone()).writerIndex(bytes.length).asReadOnly();
    }

    /** The memory of {@link #EMPTY_BUFFER} and of {@link #constantBuffer}: its reference count is a constant. */
    private static final class ConstantByteBuf extends HeapByteBuf {
        ConstantByteBuf(byte[] bytes) {
            super(ALLOC, bytes, bytes.length);
        }

        @Override
        public int refCnt() {
            return 1;
        }

        @Override
        public ByteBuf retain() {
            return this;
        }

        @Override
        public ByteBuf retain(int increment) {
            return this;
        }

        @Override
        public boolean release() {
            return false;
        }

        @Override
        public boolean release(int decrement) {
            return false;
        }
    }
}
