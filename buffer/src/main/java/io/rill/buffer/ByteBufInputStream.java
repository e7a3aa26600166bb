package io.rill.buffer;

import java.io.InputStream;

/**
 * Reads a buffer's readable bytes as an {@link InputStream}, advancing its reader index. With
 * {@code releaseOnClose}, closing the stream releases the buffer (once).
 */
public final class ByteBufInputStream extends InputStream {

    private final ByteBuf buf;
    private final boolean releaseOnClose;
    private boolean closed;

    /**
     * A stream over {@code buf} that leaves releasing it to the caller.
     *
     * @param buf the buffer to read; the caller keeps ownership
     */
    public ByteBufInputStream(ByteBuf buf) {
        this(buf, false);
    }

    /**
     * A stream over {@code buf}.
     *
     * @param buf the buffer to read
     * @param releaseOnClose true to hand ownership to the stream, which releases {@code buf} on close
     */
    public ByteBufInputStream(ByteBuf buf, boolean releaseOnClose) {
        this.buf = buf;
        this.releaseOnClose = releaseOnClose;
    }

    @Override
    public int read() {
        return buf.isReadable() ? buf.readByte() & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        int n = Math.min(len, buf.readableBytes());
        if (n == 0) {
            return -1;
        }
        buf.readBytes(b, off, n);
        return n;
    }

    @Override
    public long skip(long n) {
        int skipped = (int) Math.max(0, Math.min(n, buf.readableBytes()));
        buf.skipBytes(skipped);
        return skipped;
    }

    @Override
    public int available() {
        return buf.readableBytes();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (releaseOnClose) {
                buf.release();
            }
        }
    }
}
