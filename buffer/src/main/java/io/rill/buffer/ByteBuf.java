package io.rill.buffer;

import static io.rill.buffer.IndexChecks.checkDstWritable;
import static io.rill.buffer.IndexChecks.checkSrcReadable;
import static io.rill.buffer.IndexChecks.notReadable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.Charset;

/**
 * A random- and sequential-access sequence of bytes with two independent indexes: reads
 * consume at {@code readerIndex}, writes append at {@code writerIndex}, and
 * {@code 0 <= readerIndex <= writerIndex <= capacity <= maxCapacity} holds at every step.
 *
 * <p><b>The indexes, by example.</b> A buffer of capacity 8; each row shows the state after its
 * operation ({@code r} reader index, {@code w} writer index, {@code [..]} the readable bytes,
 * {@code ..} a byte with nothing to read: never written, or left behind by a move or a clear).
 * <pre>
 *   operation              r  w  bytes 0 to 7               readable  writable
 *   buffer(8)              0  0  [] .. .. .. .. .. .. .. ..      0         8
 *   writeInt(0x0A0B0C0D)   0  4  [0A 0B 0C 0D] .. .. .. ..       4         4
 *   writeShort(0x0E0F)     0  6  [0A 0B 0C 0D 0E 0F] .. ..       6         2
 *   readByte() is 0x0A     1  6  0A [0B 0C 0D 0E 0F] .. ..       5         2
 *   getByte(5) is 0x0F     1  6  unchanged: absolute access moves no index
 *   discardReadBytes()     0  5  [0B 0C 0D 0E 0F] .. .. ..       5         3
 *   clear()                0  0  [] .. .. .. .. .. .. .. ..      0         8
 * </pre>
 * Bytes before the reader index were read and may be discarded (a {@link CompositeByteBuf} drops
 * them with their capacity instead of moving the rest); bytes from the writer index on may be
 * overwritten. A write that needs more than {@link #writableBytes()} grows the capacity,
 * up to {@link #maxCapacity()}.
 *
 * <p>The package summary describes the rest of the contract: the typed accessors and their byte
 * order, the kinds of buffer and their views, reference counting, errors and threads. What it says
 * once the methods do not repeat: {@code getX} and {@code setX} move no index and throw
 * {@link IndexOutOfBoundsException} when a byte they touch lies outside {@code [0, capacity)};
 * {@code readX} advances the reader index past the bytes it consumed and throws that exception when
 * fewer are readable; {@code writeX} first grows as {@link #ensureWritable(int)} does, failing the
 * same way beyond {@link #maxCapacity()}. A buffer passed as source or destination stays the
 * caller's: it is neither retained nor released.
 *
 * <p>Every {@code ByteBuf} is created by this package (the constructor is package-private), so
 * views can reach the memory of the buffer they derive from without another indirection.
 */
public abstract class ByteBuf implements ReferenceCounted, Comparable<ByteBuf> {

    ByteBuf() {
    }

    // ------------------------------------------------------------------ identity and capacity

    /** {@return the number of bytes this buffer can hold before it has to grow} */
    public abstract int capacity();

    /**
     * Sets the capacity, reallocating if needed. Shrinking below {@code writerIndex} moves the
     * indexes down to the new capacity. Throws {@link IllegalArgumentException} when
     * {@code newCapacity} is negative or above {@link #maxCapacity()}.
     *
     * @param newCapacity the new capacity, in {@code [0, maxCapacity()]}
     * @return this buffer
     */
    public abstract ByteBuf capacity(int newCapacity);

    /** {@return the limit {@link #capacity()} may grow to, fixed at creation} */
    public abstract int maxCapacity();

    /** {@return the allocator that created this buffer (and that growth allocates from)} */
    public abstract ByteBufAllocator alloc();

    /** {@return the buffer this one is a view of, or null if it owns its memory} */
    public abstract ByteBuf unwrap();

    /** {@return true if the bytes live outside the Java heap (in a direct {@link ByteBuffer})} */
    public abstract boolean isDirect();

    /** {@return true if every write through this buffer throws {@link java.nio.ReadOnlyBufferException}} */
    public abstract boolean isReadOnly();

    /**
     * {@return a read-only view sharing memory and reference count with this buffer} Releasing the view releases
     * this buffer.
     */
    public abstract ByteBuf asReadOnly();

    // ------------------------------------------------------------------ indexes

    /** {@return the index of the next byte {@code readXxx} consumes} */
    public abstract int readerIndex();

    /**
     * Sets the reader index; must stay within {@code [0, writerIndex]}.
     *
     * @param readerIndex the new reader index
     * @return this buffer
     * @throws IndexOutOfBoundsException if it is outside {@code [0, writerIndex]}
     */
    public abstract ByteBuf readerIndex(int readerIndex);

    /** {@return the index where the next {@code writeXxx} appends} */
    public abstract int writerIndex();

    /**
     * Sets the writer index; must stay within {@code [readerIndex, capacity]}.
     *
     * @param writerIndex the new writer index
     * @return this buffer
     * @throws IndexOutOfBoundsException if it is outside {@code [readerIndex, capacity]}
     */
    public abstract ByteBuf writerIndex(int writerIndex);

    /**
     * Sets both indexes at once, so the order of the two single setters does not matter.
     *
     * @param readerIndex the new reader index
     * @param writerIndex the new writer index
     * @return this buffer
     * @throws IndexOutOfBoundsException unless {@code 0 <= readerIndex <= writerIndex <= capacity}
     */
    public abstract ByteBuf setIndex(int readerIndex, int writerIndex);

    /** {@return the number of readable bytes, {@code writerIndex - readerIndex}} */
    public abstract int readableBytes();

    /** {@return what can be written without growing, {@code capacity - writerIndex}} */
    public abstract int writableBytes();

    /** {@return what can be written at most, {@code maxCapacity - writerIndex}} */
    public abstract int maxWritableBytes();

    /** {@return true if at least one byte is readable} */
    public abstract boolean isReadable();

    /**
     * {@return true if at least {@code size} bytes are readable}
     *
     * @param size the number of bytes wanted
     */
    public abstract boolean isReadable(int size);

    /** {@return true if at least one byte can be written without growing} */
    public abstract boolean isWritable();

    /**
     * {@return true if {@code size} bytes can be written without growing}
     *
     * @param size the number of bytes wanted
     */
    public abstract boolean isWritable(int size);

    /**
     * Sets both indexes to 0; the bytes are not cleared.
     *
     * @return this buffer
     */
    public abstract ByteBuf clear();

    /**
     * Moves the readable bytes to index 0, making the discarded prefix writable.
     *
     * @return this buffer
     */
    public abstract ByteBuf discardReadBytes();

    /**
     * Like {@link #discardReadBytes()} but only when it is worth the copy: when everything was
     * read (no copy at all) or the read prefix is at least half the capacity.
     *
     * @return this buffer
     */
    public abstract ByteBuf discardSomeReadBytes();

    /**
     * Makes sure {@code minWritableBytes} can be written, growing the capacity by
     * {@link ByteBufAllocator#calculateNewCapacity(int, int)}. Throws
     * {@link IndexOutOfBoundsException} naming the writer index, the request and the maximum
     * capacity when that would exceed {@link #maxCapacity()}.
     *
     * @param minWritableBytes the number of bytes about to be written
     * @return this buffer
     */
    public abstract ByteBuf ensureWritable(int minWritableBytes);

    /**
     * The non-throwing form of {@link #ensureWritable(int)}: returns 0 if the bytes were already
     * writable, 2 if the capacity grew, 1 if it could not grow enough and nothing changed, and 3
     * if {@code force} was true and the capacity was raised to {@link #maxCapacity()} anyway.
     *
     * @param minWritableBytes the number of bytes about to be written
     * @param force whether to grow to the maximum capacity when that is still not enough
     * @return a code telling what happened, as above
     */
    public int ensureWritable(int minWritableBytes, boolean force) {
        checkIndex(0, 0);
        if (minWritableBytes < 0) {
            throw new IllegalArgumentException("minWritableBytes: " + minWritableBytes + " (expected: >= 0)");
        }
        if (minWritableBytes <= writableBytes()) {
            return 0;
        }
        if (minWritableBytes > maxCapacity() - writerIndex()) {
            if (!force || capacity() == maxCapacity()) {
                return 1;
            }
            capacity(maxCapacity());
            return 3;
        }
        capacity(alloc().calculateNewCapacity(writerIndex() + minWritableBytes, maxCapacity()));
        return 2;
    }

    // ------------------------------------------------------------------ absolute get

    /**
     * {@return the byte at {@code index}}
     *
     * @param index absolute index
     */
    public abstract byte getByte(int index);

    /**
     * {@return the big-endian 16-bit integer in the 2 bytes at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public abstract short getShort(int index);

    /**
     * {@return the little-endian 16-bit integer in the 2 bytes at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public abstract short getShortLE(int index);

    /**
     * {@return the big-endian unsigned 24-bit integer in the 3 bytes at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public abstract int getUnsignedMedium(int index);

    /**
     * {@return the little-endian unsigned 24-bit integer in the 3 bytes at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public abstract int getUnsignedMediumLE(int index);

    /**
     * {@return the big-endian 32-bit integer in the 4 bytes at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public abstract int getInt(int index);

    /**
     * {@return the little-endian 32-bit integer in the 4 bytes at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public abstract int getIntLE(int index);

    /**
     * {@return the big-endian 64-bit integer in the 8 bytes at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public abstract long getLong(int index);

    /**
     * {@return the little-endian 64-bit integer in the 8 bytes at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public abstract long getLongLE(int index);

    // Derived from the accessors above, one formula each.
    /**
     * {@return true unless the byte at {@code index} is zero}
     *
     * @param index absolute index
     */
    public boolean getBoolean(int index) { return getByte(index) != 0; }

    /**
     * {@return the byte at {@code index} as an unsigned value, 0 to 255}
     *
     * @param index absolute index
     */
    public short getUnsignedByte(int index) { return (short) (getByte(index) & 0xff); }

    /**
     * {@return the big-endian unsigned 16-bit integer at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public int getUnsignedShort(int index) { return getShort(index) & 0xffff; }

    /**
     * {@return the little-endian unsigned 16-bit integer at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public int getUnsignedShortLE(int index) { return getShortLE(index) & 0xffff; }

    /**
     * {@return the big-endian signed 24-bit integer at {@code index}, sign-extended}
     *
     * @param index absolute index of the first byte
     */
    public int getMedium(int index) { return getUnsignedMedium(index) << 8 >> 8; }

    /**
     * {@return the little-endian signed 24-bit integer at {@code index}, sign-extended}
     *
     * @param index absolute index of the first byte
     */
    public int getMediumLE(int index) { return getUnsignedMediumLE(index) << 8 >> 8; }

    /**
     * {@return the big-endian unsigned 32-bit integer at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public long getUnsignedInt(int index) { return getInt(index) & 0xffffffffL; }

    /**
     * {@return the little-endian unsigned 32-bit integer at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public long getUnsignedIntLE(int index) { return getIntLE(index) & 0xffffffffL; }

    /**
     * {@return the big-endian UTF-16 code unit at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public char getChar(int index) { return (char) getShort(index); }

    /**
     * {@return the little-endian UTF-16 code unit at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public char getCharLE(int index) { return (char) getShortLE(index); }

    /**
     * {@return the big-endian IEEE 754 single at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public float getFloat(int index) { return Float.intBitsToFloat(getInt(index)); }

    /**
     * {@return the little-endian IEEE 754 single at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public float getFloatLE(int index) { return Float.intBitsToFloat(getIntLE(index)); }

    /**
     * {@return the big-endian IEEE 754 double at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public double getDouble(int index) { return Double.longBitsToDouble(getLong(index)); }

    /**
     * {@return the little-endian IEEE 754 double at {@code index}}
     *
     * @param index absolute index of the first byte
     */
    public double getDoubleLE(int index) { return Double.longBitsToDouble(getLongLE(index)); }

    /**
     * Copies bytes from {@code index} into {@code dst} until {@code dst} is not writable,
     * advancing {@code dst}'s writer index.
     *
     * @param index absolute index of the first byte to copy
     * @param dst the destination; the caller keeps ownership
     * @return this buffer
     */
    public ByteBuf getBytes(int index, ByteBuf dst) {
        return getBytes(index, dst, dst.writableBytes());
    }

    /**
     * Copies {@code length} bytes into {@code dst}, advancing its writer index.
     *
     * @param index absolute index of the first byte to copy
     * @param dst the destination; the caller keeps ownership
     * @param length the number of bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if {@code dst} has less room than {@code length}
     */
    public ByteBuf getBytes(int index, ByteBuf dst, int length) {
        checkDstWritable(dst, length);
        getBytes(index, dst, dst.writerIndex(), length);
        dst.writerIndex(dst.writerIndex() + length);
        return this;
    }

    /**
     * Copies {@code length} bytes to {@code dst} at {@code dstIndex}; no index of either moves.
     *
     * @param index absolute index of the first byte to copy
     * @param dst the destination; the caller keeps ownership
     * @param dstIndex absolute index in {@code dst}
     * @param length the number of bytes
     * @return this buffer
     */
    public abstract ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length);

    /**
     * Copies {@code dst.length} bytes from {@code index} into {@code dst}.
     *
     * @param index absolute index of the first byte to copy
     * @param dst the destination array
     * @return this buffer
     */
    public ByteBuf getBytes(int index, byte[] dst) {
        return getBytes(index, dst, 0, dst.length);
    }

    /**
     * Copies {@code length} bytes from {@code index} into {@code dst} at {@code dstIndex}.
     *
     * @param index absolute index of the first byte to copy
     * @param dst the destination array
     * @param dstIndex the first array index written
     * @param length the number of bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if either range is out of bounds
     */
    public abstract ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length);

    /**
     * Copies {@code dst.remaining()} bytes into {@code dst}, advancing its position.
     *
     * @param index absolute index of the first byte to copy
     * @param dst the destination
     * @return this buffer
     */
    public abstract ByteBuf getBytes(int index, ByteBuffer dst);

    /**
     * Writes {@code length} bytes from {@code index} to {@code out}.
     *
     * @param index absolute index of the first byte
     * @param out the stream to write to
     * @param length the number of bytes
     * @return this buffer
     * @throws IOException if {@code out} fails
     */
    public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
        checkIndex(index, length);
        ByteBufIo.toStream(this, index, out, length);
        return this;
    }

    /**
     * {@return how many of up to {@code length} bytes from {@code index} the channel {@code out} accepted}
     *
     * @param index absolute index of the first byte
     * @param out the channel to write to
     * @param length the most bytes to write
     * @throws IOException if {@code out} fails
     */
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        checkIndex(index, length);
        return ByteBufIo.toChannel(this, index, out, length);
    }

    /**
     * {@return how many of up to {@code length} bytes from {@code index} were written to {@code out} at file
     * {@code position}} The channel's own position is unchanged.
     *
     * @param index absolute index of the first byte
     * @param out the file to write to
     * @param position the file position of the first byte
     * @param length the most bytes to write
     * @throws IOException if {@code out} fails
     */
    public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
        checkIndex(index, length);
        return ByteBufIo.toFile(this, index, out, position, length);
    }

    /**
     * {@return {@code length} bytes decoded as text} US-ASCII and ISO-8859-1 take a fast path and
     * return an {@link io.rill.util.AsciiString} that owns a copy of the bytes.
     *
     * @param index absolute index of the first byte
     * @param length the number of bytes
     * @param charset the encoding
     */
    public CharSequence getCharSequence(int index, int length, Charset charset) {
        return ByteBufText.decodeSequence(this, index, length, charset);
    }

    // ------------------------------------------------------------------ absolute set

    /**
     * Sets the byte at {@code index} to the low 8 bits of {@code value}.
     *
     * @param index absolute index
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf setByte(int index, int value);

    /**
     * Sets the 2 bytes at {@code index} to {@code value} as a big-endian 16-bit integer.
     *
     * @param index absolute index of the first byte
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf setShort(int index, int value);

    /**
     * Sets the 2 bytes at {@code index} to {@code value} as a little-endian 16-bit integer.
     *
     * @param index absolute index of the first byte
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf setShortLE(int index, int value);

    /**
     * Sets the 3 bytes at {@code index} to {@code value} as a big-endian 24-bit integer.
     *
     * @param index absolute index of the first byte
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf setMedium(int index, int value);

    /**
     * Sets the 3 bytes at {@code index} to {@code value} as a little-endian 24-bit integer.
     *
     * @param index absolute index of the first byte
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf setMediumLE(int index, int value);

    /**
     * Sets the 4 bytes at {@code index} to {@code value} as a big-endian 32-bit integer.
     *
     * @param index absolute index of the first byte
     * @param value the value
     * @return this buffer
     */
    public abstract ByteBuf setInt(int index, int value);

    /**
     * Sets the 4 bytes at {@code index} to {@code value} as a little-endian 32-bit integer.
     *
     * @param index absolute index of the first byte
     * @param value the value
     * @return this buffer
     */
    public abstract ByteBuf setIntLE(int index, int value);

    /**
     * Sets the 8 bytes at {@code index} to {@code value} as a big-endian 64-bit integer.
     *
     * @param index absolute index of the first byte
     * @param value the value
     * @return this buffer
     */
    public abstract ByteBuf setLong(int index, long value);

    /**
     * Sets the 8 bytes at {@code index} to {@code value} as a little-endian 64-bit integer.
     *
     * @param index absolute index of the first byte
     * @param value the value
     * @return this buffer
     */
    public abstract ByteBuf setLongLE(int index, long value);

    // Derived from the accessors above, one formula each.
    /**
     * Sets the byte at {@code index} to 1 for true, 0 for false.
     *
     * @param index absolute index
     * @param value the value
     * @return this buffer
     */
    public ByteBuf setBoolean(int index, boolean value) { return setByte(index, value ? 1 : 0); }

    /**
     * Sets the big-endian UTF-16 code unit at {@code index}.
     *
     * @param index absolute index of the first byte
     * @param value the character; higher bits are ignored
     * @return this buffer
     */
    public ByteBuf setChar(int index, int value) { return setShort(index, value); }

    /**
     * Sets the little-endian UTF-16 code unit at {@code index}.
     *
     * @param index absolute index of the first byte
     * @param value the character; higher bits are ignored
     * @return this buffer
     */
    public ByteBuf setCharLE(int index, int value) { return setShortLE(index, value); }

    /**
     * Sets the big-endian IEEE 754 single at {@code index}.
     *
     * @param index absolute index of the first byte
     * @param value the value
     * @return this buffer
     */
    public ByteBuf setFloat(int index, float value) { return setInt(index, Float.floatToRawIntBits(value)); }

    /**
     * Sets the little-endian IEEE 754 single at {@code index}.
     *
     * @param index absolute index of the first byte
     * @param value the value
     * @return this buffer
     */
    public ByteBuf setFloatLE(int index, float value) { return setIntLE(index, Float.floatToRawIntBits(value)); }

    /**
     * Sets the big-endian IEEE 754 double at {@code index}.
     *
     * @param index absolute index of the first byte
     * @param value the value
     * @return this buffer
     */
    public ByteBuf setDouble(int index, double value) { return setLong(index, Double.doubleToRawLongBits(value)); }

    /**
     * Sets the little-endian IEEE 754 double at {@code index}.
     *
     * @param index absolute index of the first byte
     * @param value the value
     * @return this buffer
     */
    public ByteBuf setDoubleLE(int index, double value) { return setLongLE(index, Double.doubleToRawLongBits(value)); }

    /**
     * Copies {@code src}'s readable bytes to {@code index}, advancing {@code src}'s reader index.
     *
     * @param index absolute index of the first byte written
     * @param src the source; the caller keeps ownership
     * @return this buffer
     */
    public ByteBuf setBytes(int index, ByteBuf src) {
        return setBytes(index, src, src.readableBytes());
    }

    /**
     * Copies {@code length} of {@code src}'s readable bytes to {@code index}, advancing {@code src}'s reader
     * index.
     *
     * @param index absolute index of the first byte written
     * @param src the source; the caller keeps ownership
     * @param length the number of bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if {@code src} has fewer readable bytes than {@code length}
     */
    public ByteBuf setBytes(int index, ByteBuf src, int length) {
        checkSrcReadable(src, length);
        setBytes(index, src, src.readerIndex(), length);
        src.readerIndex(src.readerIndex() + length);
        return this;
    }

    /**
     * Copies {@code length} bytes from {@code src} at {@code srcIndex}; no index of either moves.
     *
     * @param index absolute index of the first byte written
     * @param src the source; the caller keeps ownership
     * @param srcIndex absolute index in {@code src}
     * @param length the number of bytes
     * @return this buffer
     */
    public abstract ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length);

    /**
     * Copies all of {@code src} to {@code index}.
     *
     * @param index absolute index of the first byte written
     * @param src the source array
     * @return this buffer
     */
    public ByteBuf setBytes(int index, byte[] src) {
        return setBytes(index, src, 0, src.length);
    }

    /**
     * Copies {@code length} bytes of {@code src} from {@code srcIndex} to {@code index}.
     *
     * @param index absolute index of the first byte written
     * @param src the source array
     * @param srcIndex the first array index read
     * @param length the number of bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if either range is out of bounds
     */
    public abstract ByteBuf setBytes(int index, byte[] src, int srcIndex, int length);

    /**
     * Copies {@code src.remaining()} bytes, advancing its position.
     *
     * @param index absolute index of the first byte written
     * @param src the source
     * @return this buffer
     */
    public abstract ByteBuf setBytes(int index, ByteBuffer src);

    /**
     * {@return how many of up to {@code length} bytes read from {@code in} were stored at {@code index}, or -1
     * at end of stream}
     *
     * @param index absolute index of the first byte written
     * @param in the stream to read
     * @param length the most bytes to read
     * @throws IOException if {@code in} fails
     */
    public int setBytes(int index, InputStream in, int length) throws IOException {
        checkWritableRange(index, length);
        return ByteBufIo.fromStream(this, index, in, length);
    }

    /**
     * {@return how many of up to {@code length} bytes read from {@code in} were stored at {@code index}, or -1
     * at end of stream}
     *
     * @param index absolute index of the first byte written
     * @param in the channel to read
     * @param length the most bytes to read
     * @throws IOException if {@code in} fails
     */
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        checkWritableRange(index, length);
        return ByteBufIo.fromChannel(this, index, in, length);
    }

    /**
     * {@return how many of up to {@code length} bytes read from {@code in} at file {@code position} were stored
     * at {@code index}, or -1 at end of file} The channel's own position is unchanged.
     *
     * @param index absolute index of the first byte written
     * @param in the file to read
     * @param position the file position of the first byte
     * @param length the most bytes to read
     * @throws IOException if {@code in} fails
     */
    public int setBytes(int index, FileChannel in, long position, int length) throws IOException {
        checkWritableRange(index, length);
        return ByteBufIo.fromFile(this, index, in, position, length);
    }

    /** The range checks of a transfer into this buffer: in bounds, and the buffer may be written. */
    private void checkWritableRange(int index, int length) {
        checkIndex(index, length);
        if (isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
    }

    /**
     * Fills {@code length} bytes with zeros.
     *
     * @param index absolute index of the first byte
     * @param length the number of bytes
     * @return this buffer
     */
    public abstract ByteBuf setZero(int index, int length);

    /**
     * {@return the number of bytes {@code sequence} took, encoded at {@code index}}
     *
     * @param index absolute index of the first byte written
     * @param sequence the text
     * @param charset the encoding
     */
    public abstract int setCharSequence(int index, CharSequence sequence, Charset charset);

    // ------------------------------------------------------------------ relative read

    /** {@return the byte at the reader index, which advances by 1} */
    public abstract byte readByte();

    /** {@return the big-endian 16-bit integer at the reader index, which advances by 2} */
    public abstract short readShort();

    /** {@return the little-endian 16-bit integer at the reader index, which advances by 2} */
    public abstract short readShortLE();

    /** {@return the big-endian unsigned 24-bit integer at the reader index, which advances by 3} */
    public abstract int readUnsignedMedium();

    /** {@return the little-endian unsigned 24-bit integer at the reader index, which advances by 3} */
    public abstract int readUnsignedMediumLE();

    /** {@return the big-endian 32-bit integer at the reader index, which advances by 4} */
    public abstract int readInt();

    /** {@return the little-endian 32-bit integer at the reader index, which advances by 4} */
    public abstract int readIntLE();

    /** {@return the big-endian 64-bit integer at the reader index, which advances by 8} */
    public abstract long readLong();

    /** {@return the little-endian 64-bit integer at the reader index, which advances by 8} */
    public abstract long readLongLE();

    // Derived from the accessors above, one formula each.
    /** {@return the byte at the reader index as a boolean (true unless zero), advancing the index by 1} */
    public boolean readBoolean() { return readByte() != 0; }

    /** {@return the byte at the reader index as an unsigned value, 0 to 255, advancing the index by 1} */
    public short readUnsignedByte() { return (short) (readByte() & 0xff); }

    /** {@return the big-endian unsigned 16-bit integer at the reader index, advancing the index by 2} */
    public int readUnsignedShort() { return readShort() & 0xffff; }

    /** {@return the little-endian unsigned 16-bit integer at the reader index, advancing the index by 2} */
    public int readUnsignedShortLE() { return readShortLE() & 0xffff; }

    /** {@return the big-endian 24-bit integer at the reader index, sign-extended, advancing the index by 3} */
    public int readMedium() { return readUnsignedMedium() << 8 >> 8; }

    /** {@return the little-endian 24-bit integer at the reader index, sign-extended, advancing the index by 3} */
    public int readMediumLE() { return readUnsignedMediumLE() << 8 >> 8; }

    /** {@return the big-endian unsigned 32-bit integer at the reader index, advancing the index by 4} */
    public long readUnsignedInt() { return readInt() & 0xffffffffL; }

    /** {@return the little-endian unsigned 32-bit integer at the reader index, advancing the index by 4} */
    public long readUnsignedIntLE() { return readIntLE() & 0xffffffffL; }

    /** {@return the big-endian UTF-16 code unit at the reader index, advancing the index by 2} */
    public char readChar() { return (char) readShort(); }

    /** {@return the little-endian UTF-16 code unit at the reader index, advancing the index by 2} */
    public char readCharLE() { return (char) readShortLE(); }

    /** {@return the big-endian IEEE 754 single at the reader index, advancing the index by 4} */
    public float readFloat() { return Float.intBitsToFloat(readInt()); }

    /** {@return the little-endian IEEE 754 single at the reader index, advancing the index by 4} */
    public float readFloatLE() { return Float.intBitsToFloat(readIntLE()); }

    /** {@return the big-endian IEEE 754 double at the reader index, advancing the index by 8} */
    public double readDouble() { return Double.longBitsToDouble(readLong()); }

    /** {@return the little-endian IEEE 754 double at the reader index, advancing the index by 8} */
    public double readDoubleLE() { return Double.longBitsToDouble(readLongLE()); }

    /**
     * {@return a new buffer from {@link #alloc()} holding a copy of the next {@code length} bytes} The caller
     * owns it and must release it.
     *
     * @param length the number of bytes
     */
    public abstract ByteBuf readBytes(int length);

    /**
     * {@return a slice of the next {@code length} bytes sharing this buffer's reference count} Do not
     * release it unless you also mean to release this buffer.
     *
     * @param length the number of bytes
     */
    public abstract ByteBuf readSlice(int length);

    /**
     * {@return a slice of the next {@code length} bytes with its own count} This buffer is retained
     * until the caller, who owns the slice, releases it.
     *
     * @param length the number of bytes
     */
    public abstract ByteBuf readRetainedSlice(int length);

    /**
     * Reads until {@code dst} is not writable.
     *
     * @param dst the destination; the caller keeps ownership
     * @return this buffer
     */
    public ByteBuf readBytes(ByteBuf dst) {
        return readBytes(dst, dst.writableBytes());
    }

    /**
     * Reads {@code length} bytes into {@code dst} at its writer index, advancing both buffers' indexes.
     *
     * @param dst the destination; the caller keeps ownership
     * @param length the number of bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if {@code dst} has less room than {@code length}
     */
    public ByteBuf readBytes(ByteBuf dst, int length) {
        checkDstWritable(dst, length);
        readBytes(dst, dst.writerIndex(), length);
        dst.writerIndex(dst.writerIndex() + length);
        return this;
    }

    /**
     * Reads {@code length} bytes into {@code dst} at {@code dstIndex}; {@code dst}'s indexes do not move.
     *
     * @param dst the destination; the caller keeps ownership
     * @param dstIndex absolute index in {@code dst}
     * @param length the number of bytes
     * @return this buffer
     */
    public ByteBuf readBytes(ByteBuf dst, int dstIndex, int length) {
        requireReadable(length);
        getBytes(readerIndex(), dst, dstIndex, length);
        return skipBytes(length);
    }

    /**
     * Reads {@code dst.length} bytes into {@code dst}.
     *
     * @param dst the destination array
     * @return this buffer
     */
    public ByteBuf readBytes(byte[] dst) {
        return readBytes(dst, 0, dst.length);
    }

    /**
     * Reads {@code length} bytes into {@code dst} at {@code dstIndex}.
     *
     * @param dst the destination array
     * @param dstIndex the first array index written
     * @param length the number of bytes
     * @return this buffer
     */
    public ByteBuf readBytes(byte[] dst, int dstIndex, int length) {
        requireReadable(length);
        getBytes(readerIndex(), dst, dstIndex, length);
        return skipBytes(length);
    }

    /**
     * Reads {@code dst.remaining()} bytes into {@code dst}, advancing its position.
     *
     * @param dst the destination
     * @return this buffer
     */
    public ByteBuf readBytes(ByteBuffer dst) {
        int length = dst.remaining();
        requireReadable(length);
        getBytes(readerIndex(), dst);
        return skipBytes(length);
    }

    /**
     * Reads {@code length} bytes into {@code out}.
     *
     * @param out the stream to write to
     * @param length the number of bytes
     * @return this buffer
     * @throws IOException if {@code out} fails
     */
    public ByteBuf readBytes(OutputStream out, int length) throws IOException {
        requireReadable(length);
        getBytes(readerIndex(), out, length);
        return skipBytes(length);
    }

    /**
     * {@return how many of up to {@code length} readable bytes {@code out} accepted} The reader index
     * advances past them.
     *
     * @param out the channel to write to
     * @param length the most bytes to write
     * @throws IOException if {@code out} fails
     */
    public int readBytes(GatheringByteChannel out, int length) throws IOException {
        requireReadable(length);
        int written = getBytes(readerIndex(), out, length);
        skipBytes(written);
        return written;
    }

    /**
     * {@return how many of up to {@code length} readable bytes were written to {@code out} at file
     * {@code position}} The reader index advances past them.
     *
     * @param out the file to write to
     * @param position the file position of the first byte
     * @param length the most bytes to write
     * @throws IOException if {@code out} fails
     */
    public int readBytes(FileChannel out, long position, int length) throws IOException {
        requireReadable(length);
        int written = getBytes(readerIndex(), out, position, length);
        skipBytes(written);
        return written;
    }

    /**
     * {@return the next {@code length} bytes decoded as by {@link #getCharSequence(int, int, Charset)}}
     *
     * @param length the number of bytes
     * @param charset the encoding
     */
    public CharSequence readCharSequence(int length, Charset charset) {
        CharSequence text = getCharSequence(readerIndex(), length, charset);
        skipBytes(length);
        return text;
    }

    /**
     * Advances the reader index by {@code length}.
     *
     * @param length the number of bytes to skip
     * @return this buffer
     */
    public abstract ByteBuf skipBytes(int length);

    // ------------------------------------------------------------------ relative write

    /**
     * Appends the low 8 bits of {@code value}.
     *
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf writeByte(int value);

    /**
     * Appends {@code value} as a big-endian 16-bit integer, 2 bytes.
     *
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf writeShort(int value);

    /**
     * Appends {@code value} as a little-endian 16-bit integer, 2 bytes.
     *
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf writeShortLE(int value);

    /**
     * Appends {@code value} as a big-endian 24-bit integer, 3 bytes.
     *
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf writeMedium(int value);

    /**
     * Appends {@code value} as a little-endian 24-bit integer, 3 bytes.
     *
     * @param value the value; higher bits are ignored
     * @return this buffer
     */
    public abstract ByteBuf writeMediumLE(int value);

    /**
     * Appends {@code value} as a big-endian 32-bit integer, 4 bytes.
     *
     * @param value the value
     * @return this buffer
     */
    public abstract ByteBuf writeInt(int value);

    /**
     * Appends {@code value} as a little-endian 32-bit integer, 4 bytes.
     *
     * @param value the value
     * @return this buffer
     */
    public abstract ByteBuf writeIntLE(int value);

    /**
     * Appends {@code value} as a big-endian 64-bit integer, 8 bytes.
     *
     * @param value the value
     * @return this buffer
     */
    public abstract ByteBuf writeLong(long value);

    /**
     * Appends {@code value} as a little-endian 64-bit integer, 8 bytes.
     *
     * @param value the value
     * @return this buffer
     */
    public abstract ByteBuf writeLongLE(long value);

    // Derived from the accessors above, one formula each.
    /**
     * Appends 1 for true, 0 for false.
     *
     * @param value the value
     * @return this buffer
     */
    public ByteBuf writeBoolean(boolean value) { return writeByte(value ? 1 : 0); }

    /**
     * Appends a big-endian UTF-16 code unit.
     *
     * @param value the character; higher bits are ignored
     * @return this buffer
     */
    public ByteBuf writeChar(int value) { return writeShort(value); }

    /**
     * Appends a little-endian UTF-16 code unit.
     *
     * @param value the character; higher bits are ignored
     * @return this buffer
     */
    public ByteBuf writeCharLE(int value) { return writeShortLE(value); }

    /**
     * Appends a big-endian IEEE 754 single.
     *
     * @param value the value
     * @return this buffer
     */
    public ByteBuf writeFloat(float value) { return writeInt(Float.floatToRawIntBits(value)); }

    /**
     * Appends a little-endian IEEE 754 single.
     *
     * @param value the value
     * @return this buffer
     */
    public ByteBuf writeFloatLE(float value) { return writeIntLE(Float.floatToRawIntBits(value)); }

    /**
     * Appends a big-endian IEEE 754 double.
     *
     * @param value the value
     * @return this buffer
     */
    public ByteBuf writeDouble(double value) { return writeLong(Double.doubleToRawLongBits(value)); }

    /**
     * Appends a little-endian IEEE 754 double.
     *
     * @param value the value
     * @return this buffer
     */
    public ByteBuf writeDoubleLE(double value) { return writeLongLE(Double.doubleToRawLongBits(value)); }

    /**
     * Appends all of {@code src}'s readable bytes, advancing its reader index.
     *
     * @param src the source; the caller keeps ownership
     * @return this buffer
     */
    public ByteBuf writeBytes(ByteBuf src) {
        return writeBytes(src, src.readableBytes());
    }

    /**
     * Appends {@code length} of {@code src}'s readable bytes, advancing its reader index.
     *
     * @param src the source; the caller keeps ownership
     * @param length the number of bytes
     * @return this buffer
     * @throws IndexOutOfBoundsException if {@code src} has fewer readable bytes than {@code length}
     */
    public ByteBuf writeBytes(ByteBuf src, int length) {
        checkSrcReadable(src, length);
        writeBytes(src, src.readerIndex(), length);
        src.readerIndex(src.readerIndex() + length);
        return this;
    }

    /**
     * Appends {@code length} bytes of {@code src} from {@code srcIndex}; {@code src}'s indexes do not move.
     *
     * @param src the source; the caller keeps ownership
     * @param srcIndex absolute index in {@code src}
     * @param length the number of bytes
     * @return this buffer
     */
    public ByteBuf writeBytes(ByteBuf src, int srcIndex, int length) {
        ensureWritable(length);
        setBytes(writerIndex(), src, srcIndex, length);
        return writerIndex(writerIndex() + length);
    }

    /**
     * Appends all of {@code src}.
     *
     * @param src the source array
     * @return this buffer
     */
    public ByteBuf writeBytes(byte[] src) {
        return writeBytes(src, 0, src.length);
    }

    /**
     * Appends {@code length} bytes of {@code src} from {@code srcIndex}.
     *
     * @param src the source array
     * @param srcIndex the first array index read
     * @param length the number of bytes
     * @return this buffer
     */
    public ByteBuf writeBytes(byte[] src, int srcIndex, int length) {
        ensureWritable(length);
        setBytes(writerIndex(), src, srcIndex, length);
        return writerIndex(writerIndex() + length);
    }

    /**
     * Appends {@code src.remaining()} bytes, advancing its position.
     *
     * @param src the source
     * @return this buffer
     */
    public ByteBuf writeBytes(ByteBuffer src) {
        int length = src.remaining();
        ensureWritable(length);
        setBytes(writerIndex(), src);
        return writerIndex(writerIndex() + length);
    }

    /**
     * {@return how many of up to {@code length} bytes read from {@code in} were appended, or -1 at end of stream}
     *
     * @param in the stream to read
     * @param length the most bytes to read
     * @throws IOException if {@code in} fails
     */
    public int writeBytes(InputStream in, int length) throws IOException {
        ensureWritable(length);
        return appended(setBytes(writerIndex(), in, length));
    }

    /**
     * {@return how many of up to {@code length} bytes read from {@code in} were appended, or -1 at end of stream}
     *
     * @param in the channel to read
     * @param length the most bytes to read
     * @throws IOException if {@code in} fails
     */
    public int writeBytes(ScatteringByteChannel in, int length) throws IOException {
        ensureWritable(length);
        return appended(setBytes(writerIndex(), in, length));
    }

    /**
     * {@return how many of up to {@code length} bytes read from {@code in} at file {@code position} were
     * appended, or -1 at end of file} The channel's own position is unchanged.
     *
     * @param in the file to read
     * @param position the file position of the first byte
     * @param length the most bytes to read
     * @throws IOException if {@code in} fails
     */
    public int writeBytes(FileChannel in, long position, int length) throws IOException {
        ensureWritable(length);
        return appended(setBytes(writerIndex(), in, position, length));
    }

    /** Moves the writer index past {@code read} bytes just transferred in (none at end of input, -1). */
    private int appended(int read) {
        if (read > 0) {
            writerIndex(writerIndex() + read);
        }
        return read;
    }

    /**
     * Appends {@code length} zero bytes.
     *
     * @param length the number of bytes
     * @return this buffer
     */
    public abstract ByteBuf writeZero(int length);

    /**
     * {@return the number of bytes {@code sequence} took, encoded and appended}
     *
     * @param sequence the text
     * @param charset the encoding
     */
    public abstract int writeCharSequence(CharSequence sequence, Charset charset);

    // ------------------------------------------------------------------ search

    /**
     * {@return the absolute index of the first {@code value} in {@code [fromIndex, toIndex)}, or of the last one in
     * {@code [toIndex, fromIndex)} when {@code fromIndex > toIndex}; -1 if absent}
     *
     * @param fromIndex where the search starts (inclusive)
     * @param toIndex where it ends (exclusive)
     * @param value the byte to find
     */
    public int indexOf(int fromIndex, int toIndex, byte value) {
        if (fromIndex <= toIndex) {
            fromIndex = Math.max(fromIndex, 0);
            toIndex = Math.min(toIndex, capacity());
            if (fromIndex >= toIndex) {
                return -1;
            }
            return forEachByte(fromIndex, toIndex - fromIndex, ByteProcessor.find(value));
        }
        fromIndex = Math.min(fromIndex, capacity());
        toIndex = Math.max(toIndex, 0);
        if (fromIndex <= toIndex) {
            return -1;
        }
        return forEachByteDesc(toIndex, fromIndex - toIndex, ByteProcessor.find(value));
    }

    /**
     * {@return the distance from {@code readerIndex} to the first {@code value} among the readable bytes, or -1}
     *
     * @param value the byte to find
     */
    public int bytesBefore(byte value) {
        return bytesBefore(readerIndex(), readableBytes(), value);
    }

    /**
     * {@return the distance from the reader index, or -1, like {@link #bytesBefore(byte)} within the next
     * {@code length} readable bytes}
     *
     * @param length how many readable bytes to search
     * @param value the byte to find
     */
    public int bytesBefore(int length, byte value) {
        requireReadable(length);
        return bytesBefore(readerIndex(), length, value);
    }

    /**
     * {@return the distance from {@code index} to the first {@code value} in {@code [index, index + length)}, or -1}
     *
     * @param index absolute index where the search starts
     * @param length how many bytes to search
     * @param value the byte to find
     */
    public abstract int bytesBefore(int index, int length, byte value);

    /**
     * {@return the absolute index where {@code processor}, fed the readable bytes, stopped; -1 if it saw them all}
     *
     * @param processor told each byte until it returns false
     */
    public int forEachByte(ByteProcessor processor) {
        return forEachByte(readerIndex(), readableBytes(), processor);
    }

    /**
     * {@return the absolute index where {@code processor}, fed the bytes of {@code [index, index + length)} in
     * order, stopped; -1 if it saw them all}
     *
     * @param index absolute index of the first byte
     * @param length the number of bytes
     * @param processor told each byte until it returns false
     */
    public abstract int forEachByte(int index, int length, ByteProcessor processor);

    /**
     * {@return the absolute index where {@code processor}, fed the readable bytes from the last backwards,
     * stopped; -1 if it saw them all}
     *
     * @param processor told each byte until it returns false
     */
    public int forEachByteDesc(ByteProcessor processor) {
        return forEachByteDesc(readerIndex(), readableBytes(), processor);
    }

    /**
     * {@return the absolute index where {@code processor}, fed the bytes of {@code [index, index + length)} from
     * the last to the first, stopped; -1 if it saw them all}
     *
     * @param index absolute index of the lowest byte
     * @param length the number of bytes
     * @param processor told each byte until it returns false
     */
    public abstract int forEachByteDesc(int index, int length, ByteProcessor processor);

    // ------------------------------------------------------------------ copies and views

    /** {@return a new buffer holding a copy of the readable bytes, which the caller must release} */
    public ByteBuf copy() {
        return copy(readerIndex(), readableBytes());
    }

    /**
     * {@return a new buffer holding a copy of {@code [index, index + length)}, which the caller must release}
     *
     * @param index absolute index of the first byte
     * @param length the number of bytes
     */
    public abstract ByteBuf copy(int index, int length);

    /** {@return a view of the readable bytes sharing memory and reference count: releasing it releases this buffer} */
    public ByteBuf slice() {
        return slice(readerIndex(), readableBytes());
    }

    /**
     * {@return a view of the readable bytes, like {@link #slice()} but with its own count} This buffer is retained
     * until the caller, who owns the slice, releases it.
     */
    public ByteBuf retainedSlice() {
        return retainedSlice(readerIndex(), readableBytes());
    }

    /**
     * {@return a view of {@code [index, index + length)} sharing memory and reference count} Releasing the view
     * releases this buffer.
     *
     * @param index absolute index of the view's first byte
     * @param length the view's capacity
     */
    public abstract ByteBuf slice(int index, int length);

    /**
     * {@return a view like {@link #slice(int, int)} but with its own count} This buffer is retained until the
     * caller, who owns the slice, releases it.
     *
     * @param index absolute index of the view's first byte
     * @param length the view's capacity
     */
    public abstract ByteBuf retainedSlice(int index, int length);

    /**
     * {@return a view of the whole buffer with its own indexes, sharing memory and reference count} Releasing
     * the view releases this buffer.
     */
    public abstract ByteBuf duplicate();

    /**
     * {@return a view like {@link #duplicate()} but with its own count} This buffer is retained until the caller,
     * who owns the view, releases it.
     */
    public abstract ByteBuf retainedDuplicate();

    // ------------------------------------------------------------------ NIO and arrays

    /** {@return how many {@link ByteBuffer}s {@link #nioBuffers()} returns (1 unless composite)} */
    public abstract int nioBufferCount();

    /**
     * {@return the readable bytes as one {@link ByteBuffer}, which may share memory or be a copy (composite)} It
     * is valid while this buffer is not released.
     */
    public ByteBuffer nioBuffer() {
        return nioBuffer(readerIndex(), readableBytes());
    }

    /**
     * {@return the bytes of {@code [index, index + length)} as one {@link ByteBuffer}, which may share memory or
     * be a copy (composite)} It is valid while this buffer is not released; writing to a copy changes nothing here.
     *
     * @param index absolute index of the first byte
     * @param length the number of bytes
     */
    public abstract ByteBuffer nioBuffer(int index, int length);

    /** {@return the readable bytes as {@link ByteBuffer}s sharing this buffer's memory, valid until it is released} */
    public ByteBuffer[] nioBuffers() {
        return nioBuffers(readerIndex(), readableBytes());
    }

    /**
     * {@return the bytes of {@code [index, index + length)} as {@link ByteBuffer}s sharing this buffer's memory}
     * They are valid while this buffer is not released.
     *
     * @param index absolute index of the first byte
     * @param length the number of bytes
     */
    public abstract ByteBuffer[] nioBuffers(int index, int length);

    /**
     * The bytes of {@code [index, index + length)} as a {@link ByteBuffer} for an I/O call the
     * calling thread makes right away, such as a gathering socket write: a view object the thread
     * keeps and reuses, one per {@code slot}, so that building the arguments of a write allocates
     * nothing. It is valid only until the same thread asks for the same slot again, of this or any
     * other buffer, and while this buffer is not released; a gathering write asks for slots
     * {@code 0..n-1}, one per buffer. A buffer whose bytes are not one region of memory
     * ({@link #nioBufferCount()} above 1) returns {@link #nioBuffer(int, int)}, a fresh copy; a
     * read-only buffer returns a read-only view.
     *
     * @param index absolute index of the first byte
     * @param length the number of bytes
     * @param slot which of the thread's views to use, {@code 0 <= slot < 1024}
     * @return a view with position and limit around the bytes; the caller may move both
     */
    public ByteBuffer ioView(int index, int length, int slot) {
        return nioBuffer(index, length);
    }

    /** {@return true if {@link #array()} may be called} */
    public abstract boolean hasArray();

    /**
     * {@return the backing array, shared with this buffer} Throws {@link UnsupportedOperationException} unless
     * {@link #hasArray()}.
     */
    public abstract byte[] array();

    /** {@return the index in {@link #array()} of this buffer's index 0} */
    public abstract int arrayOffset();

    // ------------------------------------------------------------------ text and identity

    /**
     * {@return the readable bytes decoded with {@code charset}} The reader index does not move.
     *
     * @param charset the encoding
     */
    public String toString(Charset charset) {
        return toString(readerIndex(), readableBytes(), charset);
    }

    /**
     * {@return the bytes of {@code [index, index + length)} decoded with {@code charset}}
     *
     * @param index absolute index of the first byte
     * @param length the number of bytes
     * @param charset the encoding
     */
    public String toString(int index, int length, Charset charset) {
        return ByteBufText.decode(this, index, length, charset);
    }

    /** A hash of the readable bytes. */
    @Override
    public int hashCode() {
        return ByteBufUtil.hashCode(this);
    }

    /** True if {@code other} is a ByteBuf with the same readable bytes. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof ByteBuf && ByteBufUtil.equals(this, (ByteBuf) other);
    }

    /** Compares the readable bytes as unsigned values, then by length. */
    @Override
    public int compareTo(ByteBuf other) {
        return ByteBufUtil.compare(this, other);
    }

    /** Kind, indexes and capacities; never the content. */
    @Override
    public abstract String toString();

    // ------------------------------------------------------------------ reference counting

    @Override
    public abstract ByteBuf retain();

    @Override
    public abstract ByteBuf retain(int increment);

    @Override
    public abstract ByteBuf touch();

    @Override
    public abstract ByteBuf touch(Object hint);

    /** Throws if released or if {@code [index, index + length)} is not inside the capacity. */
    abstract void checkIndex(int index, int length);

    /** Throws unless {@code length} bytes are readable, naming both indexes (or that the buffer was released). */
    final void requireReadable(int length) {
        if (length < 0 || length > readableBytes()) {
            throw refCnt() == 0 ? new IllegalReferenceCountException(0)
                    : new IndexOutOfBoundsException(notReadable(this, length));
        }
    }
}
