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

    /** The whole file, opened for reading here. */
    public ChunkedFile(File file) throws IOException {
        this(new RandomAccessFile(file, "r"), DEFAULT_CHUNK_SIZE);
    }

    public ChunkedFile(RandomAccessFile file, int chunkSize) throws IOException {
        this(file, 0, file.length(), chunkSize);
    }

    public ChunkedFile(RandomAccessFile file, long offset, long length, int chunkSize) throws IOException {
        super(file.getChannel(), offset, length, chunkSize);
        this.file = file;
    }

    @Override
    public void close() throws Exception {
        file.close();
    }
}
