package io.rill.handler.stream;

import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * A region of a file read chunk by chunk with positional {@link FileChannel} reads, so the
 * channel's own position is never used nor moved. A file that turns out shorter than the
 * region (truncated while being sent) fails with {@link EOFException}.
 */
public class ChunkedNioFile implements ChunkedInput<ByteBuf> {

    /** The chunk size when none is given: large enough to amortise a read, small enough to interleave. */
    public static final int DEFAULT_CHUNK_SIZE = 8192;

    private final FileChannel file;
    private final long startOffset;
    private final long endOffset;
    private final int chunkSize;
    /** Next position to read; startOffset <= offset <= endOffset. */
    private long offset;

    /**
     * The whole file, opened for reading here and closed with this input.
     *
     * @param file the file to send
     * @throws IOException if the file cannot be opened
     */
    public ChunkedNioFile(File file) throws IOException {
        this(FileChannel.open(file.toPath(), StandardOpenOption.READ), DEFAULT_CHUNK_SIZE);
    }

    /**
     * The whole of {@code file}, from position 0.
     *
     * @param file      the file, closed with this input
     * @param chunkSize the largest chunk, in bytes; positive
     * @throws IOException if the file's size cannot be read or the file is closed
     */
    public ChunkedNioFile(FileChannel file, int chunkSize) throws IOException {
        this(file, 0, file.size(), chunkSize);
    }

    /**
     * {@code length} bytes of {@code file} from {@code offset}, in chunks of at most {@code chunkSize}.
     *
     * @param file      the file, closed with this input
     * @param offset    the first byte to send
     * @param length    how many bytes to send
     * @param chunkSize the largest chunk, in bytes; positive
     * @throws IOException if the file is closed
     * @throws IllegalArgumentException if a number is out of range
     */
    public ChunkedNioFile(FileChannel file, long offset, long length, int chunkSize) throws IOException {
        if (file == null) {
            throw new NullPointerException("file");
        }
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset: " + offset + ", length: " + length + " (expected: >= 0)");
        }
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunkSize: " + chunkSize + " (expected: > 0)");
        }
        if (!file.isOpen()) {
            throw new IOException("file is closed");
        }
        this.file = file;
        this.startOffset = this.offset = offset;
        this.endOffset = offset + length;
        this.chunkSize = chunkSize;
    }

    /**
     * Where the region starts.
     *
     * @return the offset of the region's first byte in the file
     */
    public long startOffset() {
        return startOffset;
    }

    /**
     * Where the region ends.
     *
     * @return the offset just past the region's last byte
     */
    public long endOffset() {
        return endOffset;
    }

    /**
     * Where the next chunk starts.
     *
     * @return the offset of the next byte to send
     */
    public long currentOffset() {
        return offset;
    }

    @Override
    public boolean isEndOfInput() {
        return offset >= endOffset || !file.isOpen();
    }

    @Override
    public void close() throws Exception {
        file.close();
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator alloc) throws IOException {
        if (offset >= endOffset) {
            return null;
        }
        int size = (int) Math.min(chunkSize, endOffset - offset);
        ByteBuf chunk = alloc.buffer(size);
        try {
            readFully(chunk, size);
        } catch (Throwable t) {
            chunk.release();
            throw t;
        }
        offset += size;
        return chunk;
    }

    /** Appends the {@code size} bytes at {@code offset} to {@code chunk}; a short file is an error, not a short chunk. */
    private void readFully(ByteBuf chunk, int size) throws IOException {
        for (int read = 0; read < size; ) {
            int n = chunk.writeBytes(file, offset + read, size - read);
            if (n < 0) {
                throw new EOFException("file ended at " + (offset + read) + ", expected " + endOffset + " bytes");
            }
            read += n;
        }
    }

    @Override
    public long length() {
        return endOffset - startOffset;
    }

    @Override
    public long progress() {
        return offset - startOffset;
    }
}
