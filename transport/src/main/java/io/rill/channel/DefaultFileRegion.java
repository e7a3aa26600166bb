package io.rill.channel;

import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.rill.buffer.IllegalReferenceCountException;
import io.rill.util.InternalLogger;

/**
 * A {@link FileRegion} of a {@link FileChannel}, or of a file opened on first use (so thousands of
 * queued regions do not hold thousands of descriptors). The last {@link #release()} closes the
 * file channel, whether this region opened it or was given it.
 */
public final class DefaultFileRegion implements FileRegion {

    private static final InternalLogger LOG = InternalLogger.get(DefaultFileRegion.class);
    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(DefaultFileRegion.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The file to open on first transfer; null when constructed from a channel. */
    private final Path path;
    private final long position;
    private final long count;
    /** Null until opened (path constructor) or after the last release. Used by the writing loop only. */
    private FileChannel file;
    /** Bytes written so far, 0..count. */
    private long transferred;
    @SuppressWarnings("unused")
    private volatile int refCnt = 1;

    /**
     * {@code count} bytes of {@code file} from {@code position}; the region owns the file channel from now on.
     *
     * @param file the open file; the region closes it when released
     * @param position the first byte
     * @param count the number of bytes
     */
    public DefaultFileRegion(FileChannel file, long position, long count) {
        if (file == null) {
            throw new NullPointerException("file");
        }
        this.path = null;
        this.file = file;
        this.position = checkRange(position, count);
        this.count = count;
    }

    /**
     * {@code count} bytes of the file at {@code path} from {@code position}, opened when first written.
     *
     * @param path the file
     * @param position the first byte
     * @param count the number of bytes
     */
    public DefaultFileRegion(Path path, long position, long count) {
        if (path == null) {
            throw new NullPointerException("path");
        }
        this.path = path;
        this.position = checkRange(position, count);
        this.count = count;
    }

    private static long checkRange(long position, long count) {
        if (position < 0 || count < 0 || position + count < 0) {
            throw new IllegalArgumentException("position: " + position + ", count: " + count + " (expected: >= 0, no overflow)");
        }
        return position;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public long transferred() {
        return transferred;
    }

    @Override
    public long transferTo(WritableByteChannel target) throws IOException {
        long left = count - transferred;
        if (left == 0) {
            return 0;
        }
        if (refCnt() == 0) {
            throw new IllegalReferenceCountException(0);
        }
        if (file == null) {
            file = FileChannel.open(path, StandardOpenOption.READ);
        }
        long at = position + transferred;
        long written = file.transferTo(at, left, target);
        if (written == 0 && at >= file.size()) {
            // transferTo returns 0 at end of file as well as for a full target; only one can be retried.
            throw new EOFException("the file" + (path == null ? "" : " " + path) + " has " + file.size()
                    + " bytes, shorter than the region " + position + "+" + count);
        }
        transferred += written;
        return written;
    }

    /**
     * The file, for a region made from a path; null for one made from a {@link FileChannel}. A
     * transport that sends the file itself ({@code sendfile(2)} on a descriptor it opened, as the
     * epoll transport does) needs it, since a FileChannel does not expose its descriptor.
     *
     * @return the path, or null
     */
    public Path path() {
        return path;
    }

    /**
     * Records {@code bytes} more as written by such a transport, which did not go through {@link #transferTo}.
     *
     * @param bytes the bytes sent
     */
    public void addTransferred(long bytes) {
        if (bytes < 0 || bytes > count - transferred) {
            throw new IllegalArgumentException("bytes: " + bytes + " (expected: 0.." + (count - transferred) + ')');
        }
        transferred += bytes;
    }

    @Override
    public int refCnt() {
        return (int) REF_CNT.getVolatile(this);
    }

    @Override
    public FileRegion retain() {
        return retain(1);
    }

    @Override
    public FileRegion retain(int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected: > 0)");
        }
        for (;;) {
            int current = refCnt();
            if (current == 0 || current + increment < current) {
                throw new IllegalReferenceCountException(current);
            }
            if (REF_CNT.compareAndSet(this, current, current + increment)) {
                return this;
            }
        }
    }

    @Override
    public FileRegion touch() {
        return this;
    }

    @Override
    public FileRegion touch(Object hint) {
        return this;
    }

    @Override
    public boolean release() {
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
        for (;;) {
            int current = refCnt();
            if (current < decrement) {
                throw new IllegalReferenceCountException(current);
            }
            if (REF_CNT.compareAndSet(this, current, current - decrement)) {
                if (current == decrement) {
                    closeFile();
                    return true;
                }
                return false;
            }
        }
    }

    private void closeFile() {
        FileChannel f = file;
        file = null;
        if (f != null) {
            try {
                f.close();
            } catch (IOException e) {
                LOG.warn("Failed to close the file of " + this, e);
            }
        }
    }

    @Override
    public String toString() {
        return "DefaultFileRegion(" + (path == null ? "channel" : path) + ", " + position + "+" + count
                + ", transferred: " + transferred + ", refCnt: " + refCnt() + ')';
    }
}
