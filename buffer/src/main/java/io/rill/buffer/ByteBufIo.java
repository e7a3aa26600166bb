package io.rill.buffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * How any {@link ByteBuf} moves bytes to and from streams and channels, unless a subclass knows
 * a faster way (a direct buffer reads and writes channels without these views). Callers have
 * checked the range and, for the {@code from} methods, that the buffer is writable.
 */
final class ByteBufIo {

    /** Copies through a bounded chunk when the buffer has no array to hand to the stream. */
    private static final int CHUNK = 8192;

    private ByteBufIo() {
    }

    static void toStream(ByteBuf buf, int index, OutputStream out, int length) throws IOException {
        if (buf.hasArray()) {
            out.write(buf.array(), buf.arrayOffset() + index, length);
            return;
        }
        byte[] chunk = new byte[Math.min(length, CHUNK)];
        for (int done = 0; done < length; ) {
            int n = Math.min(chunk.length, length - done);
            buf.getBytes(index + done, chunk, 0, n);
            out.write(chunk, 0, n);
            done += n;
        }
    }

    static int toChannel(ByteBuf buf, int index, GatheringByteChannel out, int length) throws IOException {
        if (buf.nioBufferCount() == 1) {
            return out.write(buf.nioBuffer(index, length));
        }
        return (int) out.write(buf.nioBuffers(index, length));
    }

    static int toFile(ByteBuf buf, int index, FileChannel out, long position, int length) throws IOException {
        int written = 0;
        for (ByteBuffer b : buf.nioBuffers(index, length)) {
            while (b.hasRemaining()) {
                int n = out.write(b, position + written);
                if (n <= 0) {
                    return written;
                }
                written += n;
            }
        }
        return written;
    }

    static int fromStream(ByteBuf buf, int index, InputStream in, int length) throws IOException {
        if (buf.hasArray()) {
            return in.read(buf.array(), buf.arrayOffset() + index, length);
        }
        byte[] chunk = new byte[Math.min(length, CHUNK)];
        int done = 0;
        while (done < length) {
            int n = in.read(chunk, 0, Math.min(chunk.length, length - done));
            if (n < 0) {
                return done == 0 ? -1 : done;
            }
            buf.setBytes(index + done, chunk, 0, n);
            done += n;
            if (n == 0 || in.available() == 0) {
                break;
            }
        }
        return done;
    }

    static int fromChannel(ByteBuf buf, int index, ScatteringByteChannel in, int length) throws IOException {
        if (buf.nioBufferCount() == 1) {
            return in.read(buf.nioBuffer(index, length));
        }
        return (int) in.read(buf.nioBuffers(index, length));
    }

    static int fromFile(ByteBuf buf, int index, FileChannel in, long position, int length) throws IOException {
        int read = 0;
        for (ByteBuffer b : buf.nioBuffers(index, length)) {
            while (b.hasRemaining()) {
                int n = in.read(b, position + read);
                if (n <= 0) {
                    return read == 0 && n < 0 ? -1 : read;
                }
                read += n;
            }
        }
        return read;
    }
}
