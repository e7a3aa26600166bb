package io.rill.buffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

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
 * order, the kinds of buffer and their views, reference counting, errors and threads.
 *
 * <p>Every {@code ByteBuf} is created by this package (the constructor is package-private), so
 * views can reach the memory of the buffer they derive from without another indirection.
 */
public abstract class ByteBuf implements ReferenceCounted, Comparable<ByteBuf> {

    ByteBuf() {
    }

    // ------------------------------------------------------------------ identity and capacity

    /** The number of bytes this buffer can hold before it has to grow. */
    public abstract int capacity();

    /**
     * Sets the capacity, reallocating if needed. Shrinking below {@code writerIndex} moves the
     * indexes down to the new capacity. Throws {@link IllegalArgumentException} when
     * {@code newCapacity} is negative or above {@link #maxCapacity()}.
     */
    public abstract ByteBuf capacity(int newCapacity);

    /** The limit {@link #capacity()} may grow to, fixed at creation. */
    public abstract int maxCapacity();

    /** The allocator that created this buffer (and that growth allocates from). */
    public abstract ByteBufAllocator alloc();

    /** The buffer this one is a view of, or null if it owns its memory. */
    public abstract ByteBuf unwrap();

    /** True if the bytes live outside the Java heap (in a direct {@link ByteBuffer}). */
    public abstract boolean isDirect();

    /** True if every write through this buffer throws {@link java.nio.ReadOnlyBufferException}. */
    public abstract boolean isReadOnly();

    /** A read-only view sharing memory and reference count with this buffer. */
    public abstract ByteBuf asReadOnly();

    // ------------------------------------------------------------------ indexes

    /** Index of the next byte {@code readXxx} consumes. */
    public abstract int readerIndex();

    /** Sets the reader index; must stay within {@code [0, writerIndex]}. */
    public abstract ByteBuf readerIndex(int readerIndex);

    /** Index where the next {@code writeXxx} appends. */
    public abstract int writerIndex();

    /** Sets the writer index; must stay within {@code [readerIndex, capacity]}. */
    public abstract ByteBuf writerIndex(int writerIndex);

    /** Sets both indexes at once, so the order of the two single setters does not matter. */
    public abstract ByteBuf setIndex(int readerIndex, int writerIndex);

    /** {@code writerIndex - readerIndex}. */
    public abstract int readableBytes();

    /** {@code capacity - writerIndex}: what can be written without growing. */
    public abstract int writableBytes();

    /** {@code maxCapacity - writerIndex}: what can be written at most. */
    public abstract int maxWritableBytes();

    /** True if at least one byte is readable. */
    public abstract boolean isReadable();

    /** True if at least {@code size} bytes are readable. */
    public abstract boolean isReadable(int size);

    /** True if at least one byte can be written without growing. */
    public abstract boolean isWritable();

    /** True if {@code size} bytes can be written without growing. */
    public abstract boolean isWritable(int size);

    /** Sets both indexes to 0; the bytes are not cleared. */
    public abstract ByteBuf clear();

    /** Moves the readable bytes to index 0, making the discarded prefix writable. */
    public abstract ByteBuf discardReadBytes();

    /**
     * Like {@link #discardReadBytes()} but only when it is worth the copy: when everything was
     * read (no copy at all) or the read prefix is at least half the capacity.
     */
    public abstract ByteBuf discardSomeReadBytes();

    /**
     * Makes sure {@code minWritableBytes} can be written, growing the capacity by
     * {@link ByteBufAllocator#calculateNewCapacity(int, int)}. Throws
     * {@link IndexOutOfBoundsException} naming the writer index, the request and the maximum
     * capacity when that would exceed {@link #maxCapacity()}.
     */
    public abstract ByteBuf ensureWritable(int minWritableBytes);

    /**
     * The non-throwing form of {@link #ensureWritable(int)}: returns 0 if the bytes were already
     * writable, 2 if the capacity grew, 1 if it could not grow enough and nothing changed, and 3
     * if {@code force} was true and the capacity was raised to {@link #maxCapacity()} anyway.
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

    public abstract byte getByte(int index);

    public abstract short getShort(int index);

    public abstract short getShortLE(int index);

    public abstract int getUnsignedMedium(int index);

    public abstract int getUnsignedMediumLE(int index);

    public abstract int getInt(int index);

    public abstract int getIntLE(int index);

    public abstract long getLong(int index);

    public abstract long getLongLE(int index);

    // Derived from the accessors above, one formula each (one per line, to read as a table).
    public boolean getBoolean(int index) { return getByte(index) != 0; }
    public short getUnsignedByte(int index) { return (short) (getByte(index) & 0xff); }
    public int getUnsignedShort(int index) { return getShort(index) & 0xffff; }
    public int getUnsignedShortLE(int index) { return getShortLE(index) & 0xffff; }
    public int getMedium(int index) { return getUnsignedMedium(index) << 8 >> 8; }
    public int getMediumLE(int index) { return getUnsignedMediumLE(index) << 8 >> 8; }
    public long getUnsignedInt(int index) { return getInt(index) & 0xffffffffL; }
    public long getUnsignedIntLE(int index) { return getIntLE(index) & 0xffffffffL; }
    public char getChar(int index) { return (char) getShort(index); }
    public char getCharLE(int index) { return (char) getShortLE(index); }
    public float getFloat(int index) { return Float.intBitsToFloat(getInt(index)); }
    public float getFloatLE(int index) { return Float.intBitsToFloat(getIntLE(index)); }
    public double getDouble(int index) { return Double.longBitsToDouble(getLong(index)); }
    public double getDoubleLE(int index) { return Double.longBitsToDouble(getLongLE(index)); }

    /**
     * Copies bytes from {@code index} into {@code dst} until {@code dst} is not writable,
     * advancing {@code dst}'s writer index.
     */
    public ByteBuf getBytes(int index, ByteBuf dst) {
        return getBytes(index, dst, dst.writableBytes());
    }

    /** Copies {@code length} bytes into {@code dst}, advancing its writer index. */
    public ByteBuf getBytes(int index, ByteBuf dst, int length) {
        if (length > dst.writableBytes()) {
            throw new IndexOutOfBoundsException("cannot copy " + length + " bytes into dst: it has room for "
                    + dst.writableBytes() + " (" + dst + ')');
        }
        getBytes(index, dst, dst.writerIndex(), length);
        dst.writerIndex(dst.writerIndex() + length);
        return this;
    }

    /** Copies {@code length} bytes to {@code dst} at {@code dstIndex}; no index of either moves. */
    public abstract ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length);

    public ByteBuf getBytes(int index, byte[] dst) {
        return getBytes(index, dst, 0, dst.length);
    }

    public abstract ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length);

    /** Copies {@code dst.remaining()} bytes into {@code dst}, advancing its position. */
    public abstract ByteBuf getBytes(int index, ByteBuffer dst);

    public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
        checkIndex(index, length);
        ByteBufIo.toStream(this, index, out, length);
        return this;
    }

    /** Writes up to {@code length} bytes to {@code out}; returns how many it accepted. */
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        checkIndex(index, length);
        return ByteBufIo.toChannel(this, index, out, length);
    }

    /** Writes up to {@code length} bytes to {@code out} at file {@code position} (the channel's own position is unchanged). */
    public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
        checkIndex(index, length);
        return ByteBufIo.toFile(this, index, out, position, length);
    }

    /**
     * Decodes {@code length} bytes as text. US-ASCII and ISO-8859-1 take a fast path and return
     * an {@link io.rill.util.AsciiString} that owns a copy of the bytes.
     */
    public CharSequence getCharSequence(int index, int length, Charset charset) {
        checkIndex(index, length);
        if (charset.equals(StandardCharsets.US_ASCII) || charset.equals(StandardCharsets.ISO_8859_1)) {
            byte[] bytes = new byte[length];
            getBytes(index, bytes, 0, length);
            return ByteBufUtil.asciiString(bytes);
        }
        return toString(index, length, charset);
    }

    // ------------------------------------------------------------------ absolute set

    public abstract ByteBuf setByte(int index, int value);

    public abstract ByteBuf setShort(int index, int value);

    public abstract ByteBuf setShortLE(int index, int value);

    public abstract ByteBuf setMedium(int index, int value);

    public abstract ByteBuf setMediumLE(int index, int value);

    public abstract ByteBuf setInt(int index, int value);

    public abstract ByteBuf setIntLE(int index, int value);

    public abstract ByteBuf setLong(int index, long value);

    public abstract ByteBuf setLongLE(int index, long value);

    // Derived from the accessors above, one formula each (one per line, to read as a table).
    public ByteBuf setBoolean(int index, boolean value) { return setByte(index, value ? 1 : 0); }
    public ByteBuf setChar(int index, int value) { return setShort(index, value); }
    public ByteBuf setCharLE(int index, int value) { return setShortLE(index, value); }
    public ByteBuf setFloat(int index, float value) { return setInt(index, Float.floatToRawIntBits(value)); }
    public ByteBuf setFloatLE(int index, float value) { return setIntLE(index, Float.floatToRawIntBits(value)); }
    public ByteBuf setDouble(int index, double value) { return setLong(index, Double.doubleToRawLongBits(value)); }
    public ByteBuf setDoubleLE(int index, double value) { return setLongLE(index, Double.doubleToRawLongBits(value)); }

    /** Copies {@code src}'s readable bytes to {@code index}, advancing {@code src}'s reader index. */
    public ByteBuf setBytes(int index, ByteBuf src) {
        return setBytes(index, src, src.readableBytes());
    }

    public ByteBuf setBytes(int index, ByteBuf src, int length) {
        if (length > src.readableBytes()) {
            throw new IndexOutOfBoundsException("cannot copy " + length + " bytes from src: it has "
                    + src.readableBytes() + " readable (" + src + ')');
        }
        setBytes(index, src, src.readerIndex(), length);
        src.readerIndex(src.readerIndex() + length);
        return this;
    }

    /** Copies {@code length} bytes from {@code src} at {@code srcIndex}; no index of either moves. */
    public abstract ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length);

    public ByteBuf setBytes(int index, byte[] src) {
        return setBytes(index, src, 0, src.length);
    }

    public abstract ByteBuf setBytes(int index, byte[] src, int srcIndex, int length);

    /** Copies {@code src.remaining()} bytes, advancing its position. */
    public abstract ByteBuf setBytes(int index, ByteBuffer src);

    /** Reads up to {@code length} bytes from {@code in}; returns the count, or -1 at end of stream. */
    public int setBytes(int index, InputStream in, int length) throws IOException {
        checkWritableRange(index, length);
        return ByteBufIo.fromStream(this, index, in, length);
    }

    /** Reads up to {@code length} bytes from {@code in}; returns the count, or -1 at end of stream. */
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        checkWritableRange(index, length);
        return ByteBufIo.fromChannel(this, index, in, length);
    }

    /** Reads up to {@code length} bytes from {@code in} at file {@code position}; -1 at end of file. */
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

    /** Fills {@code length} bytes with zeros. */
    public abstract ByteBuf setZero(int index, int length);

    /** Encodes {@code sequence} at {@code index}; returns the number of bytes written. */
    public int setCharSequence(int index, CharSequence sequence, Charset charset) {
        return ByteBufUtil.setCharSequence((AbstractByteBuf) this, index, sequence, charset, false);
    }

    // ------------------------------------------------------------------ relative read

    public abstract byte readByte();

    public abstract short readShort();

    public abstract short readShortLE();

    public abstract int readUnsignedMedium();

    public abstract int readUnsignedMediumLE();

    public abstract int readInt();

    public abstract int readIntLE();

    public abstract long readLong();

    public abstract long readLongLE();

    // Derived from the accessors above, one formula each (one per line, to read as a table).
    public boolean readBoolean() { return readByte() != 0; }
    public short readUnsignedByte() { return (short) (readByte() & 0xff); }
    public int readUnsignedShort() { return readShort() & 0xffff; }
    public int readUnsignedShortLE() { return readShortLE() & 0xffff; }
    public int readMedium() { return readUnsignedMedium() << 8 >> 8; }
    public int readMediumLE() { return readUnsignedMediumLE() << 8 >> 8; }
    public long readUnsignedInt() { return readInt() & 0xffffffffL; }
    public long readUnsignedIntLE() { return readIntLE() & 0xffffffffL; }
    public char readChar() { return (char) readShort(); }
    public char readCharLE() { return (char) readShortLE(); }
    public float readFloat() { return Float.intBitsToFloat(readInt()); }
    public float readFloatLE() { return Float.intBitsToFloat(readIntLE()); }
    public double readDouble() { return Double.longBitsToDouble(readLong()); }
    public double readDoubleLE() { return Double.longBitsToDouble(readLongLE()); }

    /** Copies the next {@code length} bytes into a new buffer from {@link #alloc()}. */
    public abstract ByteBuf readBytes(int length);

    /** A slice of the next {@code length} bytes sharing this buffer's reference count. */
    public abstract ByteBuf readSlice(int length);

    /** A slice of the next {@code length} bytes with its own count (this buffer is retained). */
    public abstract ByteBuf readRetainedSlice(int length);

    /** Reads until {@code dst} is not writable. */
    public ByteBuf readBytes(ByteBuf dst) {
        return readBytes(dst, dst.writableBytes());
    }

    public ByteBuf readBytes(ByteBuf dst, int length) {
        if (length > dst.writableBytes()) {
            throw new IndexOutOfBoundsException("cannot copy " + length + " bytes into dst: it has room for "
                    + dst.writableBytes() + " (" + dst + ')');
        }
        readBytes(dst, dst.writerIndex(), length);
        dst.writerIndex(dst.writerIndex() + length);
        return this;
    }

    public ByteBuf readBytes(ByteBuf dst, int dstIndex, int length) {
        requireReadable(length);
        getBytes(readerIndex(), dst, dstIndex, length);
        return skipBytes(length);
    }

    public ByteBuf readBytes(byte[] dst) {
        return readBytes(dst, 0, dst.length);
    }

    public ByteBuf readBytes(byte[] dst, int dstIndex, int length) {
        requireReadable(length);
        getBytes(readerIndex(), dst, dstIndex, length);
        return skipBytes(length);
    }

    public ByteBuf readBytes(ByteBuffer dst) {
        int length = dst.remaining();
        requireReadable(length);
        getBytes(readerIndex(), dst);
        return skipBytes(length);
    }

    public ByteBuf readBytes(OutputStream out, int length) throws IOException {
        requireReadable(length);
        getBytes(readerIndex(), out, length);
        return skipBytes(length);
    }

    /** Writes up to {@code length} readable bytes to {@code out}; returns how many were consumed. */
    public int readBytes(GatheringByteChannel out, int length) throws IOException {
        requireReadable(length);
        int written = getBytes(readerIndex(), out, length);
        skipBytes(written);
        return written;
    }

    public int readBytes(FileChannel out, long position, int length) throws IOException {
        requireReadable(length);
        int written = getBytes(readerIndex(), out, position, length);
        skipBytes(written);
        return written;
    }

    /** Decodes and consumes {@code length} bytes; see {@link #getCharSequence(int, int, Charset)}. */
    public CharSequence readCharSequence(int length, Charset charset) {
        CharSequence text = getCharSequence(readerIndex(), length, charset);
        skipBytes(length);
        return text;
    }

    /** Advances the reader index by {@code length}. */
    public abstract ByteBuf skipBytes(int length);

    // ------------------------------------------------------------------ relative write

    public abstract ByteBuf writeByte(int value);

    public abstract ByteBuf writeShort(int value);

    public abstract ByteBuf writeShortLE(int value);

    public abstract ByteBuf writeMedium(int value);

    public abstract ByteBuf writeMediumLE(int value);

    public abstract ByteBuf writeInt(int value);

    public abstract ByteBuf writeIntLE(int value);

    public abstract ByteBuf writeLong(long value);

    public abstract ByteBuf writeLongLE(long value);

    // Derived from the accessors above, one formula each (one per line, to read as a table).
    public ByteBuf writeBoolean(boolean value) { return writeByte(value ? 1 : 0); }
    public ByteBuf writeChar(int value) { return writeShort(value); }
    public ByteBuf writeCharLE(int value) { return writeShortLE(value); }
    public ByteBuf writeFloat(float value) { return writeInt(Float.floatToRawIntBits(value)); }
    public ByteBuf writeFloatLE(float value) { return writeIntLE(Float.floatToRawIntBits(value)); }
    public ByteBuf writeDouble(double value) { return writeLong(Double.doubleToRawLongBits(value)); }
    public ByteBuf writeDoubleLE(double value) { return writeLongLE(Double.doubleToRawLongBits(value)); }

    /** Appends all of {@code src}'s readable bytes, advancing its reader index. */
    public ByteBuf writeBytes(ByteBuf src) {
        return writeBytes(src, src.readableBytes());
    }

    public ByteBuf writeBytes(ByteBuf src, int length) {
        if (length > src.readableBytes()) {
            throw new IndexOutOfBoundsException("cannot copy " + length + " bytes from src: it has "
                    + src.readableBytes() + " readable (" + src + ')');
        }
        writeBytes(src, src.readerIndex(), length);
        src.readerIndex(src.readerIndex() + length);
        return this;
    }

    public ByteBuf writeBytes(ByteBuf src, int srcIndex, int length) {
        ensureWritable(length);
        setBytes(writerIndex(), src, srcIndex, length);
        return writerIndex(writerIndex() + length);
    }

    public ByteBuf writeBytes(byte[] src) {
        return writeBytes(src, 0, src.length);
    }

    public ByteBuf writeBytes(byte[] src, int srcIndex, int length) {
        ensureWritable(length);
        setBytes(writerIndex(), src, srcIndex, length);
        return writerIndex(writerIndex() + length);
    }

    public ByteBuf writeBytes(ByteBuffer src) {
        int length = src.remaining();
        ensureWritable(length);
        setBytes(writerIndex(), src);
        return writerIndex(writerIndex() + length);
    }

    /** Appends up to {@code length} bytes read from {@code in}; returns the count or -1 at end of stream. */
    public int writeBytes(InputStream in, int length) throws IOException {
        ensureWritable(length);
        return appended(setBytes(writerIndex(), in, length));
    }

    public int writeBytes(ScatteringByteChannel in, int length) throws IOException {
        ensureWritable(length);
        return appended(setBytes(writerIndex(), in, length));
    }

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

    /** Appends {@code length} zero bytes. */
    public abstract ByteBuf writeZero(int length);

    /** Encodes and appends {@code sequence}; returns the number of bytes written. */
    public abstract int writeCharSequence(CharSequence sequence, Charset charset);

    // ------------------------------------------------------------------ search

    /**
     * The first index of {@code value} in {@code [fromIndex, toIndex)}, or the last one in
     * {@code [toIndex, fromIndex)} when {@code fromIndex > toIndex}; -1 if absent.
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

    /** Distance from {@code readerIndex} to the first {@code value} among the readable bytes, or -1. */
    public int bytesBefore(byte value) {
        return bytesBefore(readerIndex(), readableBytes(), value);
    }

    /** Like {@link #bytesBefore(byte)} within the next {@code length} readable bytes. */
    public int bytesBefore(int length, byte value) {
        requireReadable(length);
        return bytesBefore(readerIndex(), length, value);
    }

    /** Distance from {@code index} to the first {@code value} in {@code [index, index + length)}, or -1. */
    public abstract int bytesBefore(int index, int length, byte value);

    /** Feeds the readable bytes to {@code processor}; returns the index where it stopped, or -1. */
    public int forEachByte(ByteProcessor processor) {
        return forEachByte(readerIndex(), readableBytes(), processor);
    }

    public abstract int forEachByte(int index, int length, ByteProcessor processor);

    /** Like {@link #forEachByte(ByteProcessor)} from the last readable byte backwards. */
    public int forEachByteDesc(ByteProcessor processor) {
        return forEachByteDesc(readerIndex(), readableBytes(), processor);
    }

    public abstract int forEachByteDesc(int index, int length, ByteProcessor processor);

    // ------------------------------------------------------------------ copies and views

    /** A copy of the readable bytes in a new buffer; indexes of this buffer do not move. */
    public ByteBuf copy() {
        return copy(readerIndex(), readableBytes());
    }

    public abstract ByteBuf copy(int index, int length);

    /** A view of the readable bytes, sharing memory and reference count. */
    public ByteBuf slice() {
        return slice(readerIndex(), readableBytes());
    }

    /** Like {@link #slice()} but with its own count; this buffer is retained until the slice is released. */
    public ByteBuf retainedSlice() {
        return retainedSlice(readerIndex(), readableBytes());
    }

    public abstract ByteBuf slice(int index, int length);

    public abstract ByteBuf retainedSlice(int index, int length);

    /** A view of the whole buffer with its own indexes, sharing memory and reference count. */
    public abstract ByteBuf duplicate();

    /** Like {@link #duplicate()} but with its own count; this buffer is retained until it is released. */
    public abstract ByteBuf retainedDuplicate();

    // ------------------------------------------------------------------ NIO and arrays

    /** How many {@link ByteBuffer}s {@link #nioBuffers()} returns (1 unless composite). */
    public abstract int nioBufferCount();

    /** The readable bytes as a {@link ByteBuffer}; may share memory or be a copy (composite). */
    public ByteBuffer nioBuffer() {
        return nioBuffer(readerIndex(), readableBytes());
    }

    public abstract ByteBuffer nioBuffer(int index, int length);

    /** The readable bytes as one or more {@link ByteBuffer}s sharing this buffer's memory. */
    public ByteBuffer[] nioBuffers() {
        return nioBuffers(readerIndex(), readableBytes());
    }

    public abstract ByteBuffer[] nioBuffers(int index, int length);

    /** True if {@link #array()} may be called. */
    public abstract boolean hasArray();

    /** The backing array; throws {@link UnsupportedOperationException} unless {@link #hasArray()}. */
    public abstract byte[] array();

    /** Index in {@link #array()} of this buffer's index 0. */
    public abstract int arrayOffset();

    // ------------------------------------------------------------------ text and identity

    /** Decodes the readable bytes; does not move the reader index. */
    public String toString(Charset charset) {
        return toString(readerIndex(), readableBytes(), charset);
    }

    public String toString(int index, int length, Charset charset) {
        checkIndex(index, length);
        if (length == 0) {
            return "";
        }
        if (hasArray()) {
            return new String(array(), arrayOffset() + index, length, charset);
        }
        byte[] bytes = new byte[length];
        getBytes(index, bytes, 0, length);
        return new String(bytes, charset);
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

    /** Throws unless {@code length} bytes are readable; the message names both indexes. */
    final void requireReadable(int length) {
        if (length < 0 || length > readableBytes()) {
            throw new IndexOutOfBoundsException(notReadable(this, length));
        }
    }

    /** "index 6 and length 4 do not fit in [0, 8)", with {@code what} ("dst ") in front of "index". */
    static String outside(String what, int index, int length, int capacity) {
        return what + "index " + index + " and length " + length + " do not fit in [0, " + capacity + ')';
    }

    /** Why {@code length} bytes cannot be read from {@code buf}, naming both of its indexes. */
    static String notReadable(ByteBuf buf, int length) {
        return "cannot read " + length + " bytes: " + buf.readableBytes() + " readable between readerIndex "
                + buf.readerIndex() + " and writerIndex " + buf.writerIndex() + " of " + buf;
    }
}
