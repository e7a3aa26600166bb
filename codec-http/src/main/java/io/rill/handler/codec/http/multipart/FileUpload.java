package io.rill.handler.codec.http.multipart;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A file part of a {@code multipart/form-data} body. Small files stay in memory; once one grows
 * past the decoder's memory threshold its bytes move to a temporary file (mode 0600, in a
 * directory of mode 0700: docs/security-cases.md, case R-05) and the rest is written there as it
 * arrives.
 *
 * <p>{@link #filename()} is what the client sent: never use it as a path. {@link #delete()}
 * removes the temporary file; {@link HttpPostRequestDecoder#destroy()} deletes every upload the
 * decoder made.
 */
public final class FileUpload extends HttpData {

    private final String filename;
    private final String contentType;
    private final UploadDirectory directory;
    private final int memoryThreshold;
    private final long maxSize;
    /** Bytes so far while in memory; null once on disk. */
    private byte[] memory = new byte[0];
    private int memoryLength;
    private Path file;
    private OutputStream fileOut;
    private long length;
    private boolean deleted;

    FileUpload(String name, String filename, String contentType, UploadDirectory directory, int memoryThreshold,
               long maxSize) {
        super(name);
        this.filename = filename;
        this.contentType = contentType;
        this.directory = directory;
        this.memoryThreshold = memoryThreshold;
        this.maxSize = maxSize;
    }

    /**
     * The file name the client gave, unchecked; may be empty.
     *
     * @return the file name
     */
    public String filename() {
        return filename;
    }

    /**
     * The part's {@code Content-Type}, or {@code application/octet-stream} if it had none.
     *
     * @return the media type
     */
    public String contentType() {
        return contentType;
    }

    /**
     * Bytes received.
     *
     * @return the length in bytes
     */
    public long length() {
        return length;
    }

    /**
     * Whether the content is still in memory, not yet spilled to a temporary file.
     *
     * @return true while it is in memory
     */
    public boolean isInMemory() {
        return file == null;
    }

    /**
     * The temporary file, or null while the upload is in memory.
     *
     * @return the file, or null
     */
    public Path file() {
        return file;
    }

    /**
     * The content; read from disk if it was spilled there (then it may be large: prefer {@link
     * #openStream()}).
     *
     * @return a copy of the content
     * @throws IOException if the file cannot be read
     * @throws IllegalStateException if the upload was deleted
     */
    public byte[] bytes() throws IOException {
        checkNotDeleted();
        return file == null ? Arrays.copyOf(memory, memoryLength) : Files.readAllBytes(file);
    }

    /**
     * Opens the content for reading, from memory or from the temporary file.
     *
     * @return a new stream, to be closed by the caller
     * @throws IOException if the file cannot be opened
     * @throws IllegalStateException if the upload was deleted
     */
    public InputStream openStream() throws IOException {
        checkNotDeleted();
        return file == null ? new ByteArrayInputStream(memory, 0, memoryLength) : Files.newInputStream(file);
    }

    /** Removes the temporary file (if any) and forgets the content. */
    public void delete() {
        deleted = true;
        memory = null;
        closeFile();
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // best effort: the directory is private and the OS cleans its temp space
            }
        }
    }

    void append(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return;
        }
        if (length + len > maxSize) {
            throw new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.TOO_LARGE,
                    "file upload '" + name() + "' over " + maxSize + " bytes");
        }
        length += len;
        if (file == null && memoryLength + len <= memoryThreshold) {
            if (memoryLength + len > memory.length) {
                memory = Arrays.copyOf(memory, Math.min(memoryThreshold, Math.max(memoryLength + len, memory.length * 2)));
            }
            System.arraycopy(b, off, memory, memoryLength, len);
            memoryLength += len;
            return;
        }
        if (file == null) {
            file = directory.newFile();
            fileOut = Files.newOutputStream(file);
            fileOut.write(memory, 0, memoryLength);
            memory = null;
        }
        fileOut.write(b, off, len);
    }

    /** The part ended: the file is complete. */
    void complete() throws IOException {
        if (fileOut != null) {
            fileOut.close();
            fileOut = null;
        }
    }

    private void closeFile() {
        if (fileOut != null) {
            try {
                fileOut.close();
            } catch (IOException ignored) {
                // deleting anyway
            }
            fileOut = null;
        }
    }

    private void checkNotDeleted() {
        if (deleted) {
            throw new IllegalStateException("file upload '" + name() + "' was deleted");
        }
    }

    @Override
    public String toString() {
        return "FileUpload(" + name() + ", filename=" + filename + ", " + contentType + ", " + length + " bytes, "
                + (file == null ? "in memory" : file) + ')';
    }
}
