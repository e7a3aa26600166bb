package io.rill.handler.stream;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * A region of a {@link RandomAccessFile} read chunk by chunk; closing the input closes the
 * file. Reads go through the file's channel with explicit positions, as in {@link ChunkedNioFile},
 * so the file pointer is left alone.
 */
public class ChunkedFile extends ChunkedNioFile {

    private final RandomAccessFile file;

    /**
     * The whole file, opened for reading here.
     *
     * @param file the file to send
     * @throws IOException if the file cannot be opened
     */
    public ChunkedFile(File file) throws IOException {
        this(new RandomAccessFile(file, "r"), DEFAULT_CHUNK_SIZE);
    }

    /**
     * The whole of {@code file}, from position 0; closing the input closes it.
     *
     * @param file      the file to send
     * @param chunkSize the largest chunk, in bytes; positive
     * @throws IOException if the file's length cannot be read
     */
    public ChunkedFile(RandomAccessFile file, int chunkSize) throws IOException {
        this(file, 0, file.length(), chunkSize);
    }

    /**
     * {@code length} bytes of {@code file} from {@code offset}; closing the input closes the file.
     *
     * @param file      the file to send
     * @param offset    the first byte to send
     * @param length    how many bytes to send
     * @param chunkSize the largest chunk, in bytes; positive
     * @throws IOException if the file is closed
     * @throws IllegalArgumentException if a number is out of range
     */
    public ChunkedFile(RandomAccessFile file, long offset, long length, int chunkSize) throws IOException {
        super(file.getChannel(), offset, length, chunkSize);
        this.file = file;
    }

    @Override
    public void close() throws Exception {
        file.close();
    }
}
