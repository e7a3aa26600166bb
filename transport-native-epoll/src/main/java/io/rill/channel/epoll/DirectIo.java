package io.rill.channel.epoll;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;

import io.rill.util.concurrent.FastThreadLocal;

/**
 * A socket descriptor as a JDK byte channel, so {@code ByteBuf.writeBytes(channel, n)} reads
 * straight into a buffer's memory and {@code getBytes(i, channel, n)} writes straight from it:
 * a pooled direct buffer hands over its thread's reused view of the chunk memory, positioned at
 * the bytes, and this class passes {@code address + position} to {@code read(2)}/{@code send(2)}.
 * A gathering write fills a native {@code struct iovec} array, one per thread, and makes one
 * {@code sendmsg(2)}:
 * <pre>
 *   | void *iov_base | size_t iov_len |  x IOV_MAX   (16 bytes each on 64-bit Linux)
 * </pre>
 *
 * <p>The address of a view is asked from JNI ({@code GetDirectBufferAddress}) only when the view
 * changes: a pooled chunk's view stays the same across reads, so a steady read loop costs one
 * system call and no lookup. Heap buffers (an allocator that prefers them) go through a small
 * direct scratch buffer. One instance per channel; event loop only.
 */
final class DirectIo implements ScatteringByteChannel, GatheringByteChannel {

    private static final int IOV_SIZE = Native.iovSize();
    /** sendmsg refuses more than IOV_MAX entries (1024 on Linux). */
    static final int MAX_GATHER = Math.min(1024, Native.iovMax());
    /** The iovec array of each loop thread: no channel pays for its own. */
    private static final FastThreadLocal<Iovecs> IOVECS = new FastThreadLocal<>() {
        @Override
        protected Iovecs initialValue() {
            return new Iovecs();
        }
    };

    private final LinuxSocket socket;
    /** The last view seen and its base address. */
    private ByteBuffer lastView;
    private long lastAddress;
    private ByteBuffer scratch;

    DirectIo(LinuxSocket socket) {
        this.socket = socket;
    }

    /** The native address of {@code buffer}'s index 0 (a direct buffer). */
    long addressOf(ByteBuffer buffer) {
        if (buffer != lastView) {
            lastAddress = Native.bufferAddress(buffer);
            lastView = buffer;
        }
        return lastAddress;
    }

    /** Bytes read, 0 if none are available now, -1 at end of stream. */
    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!dst.isDirect()) {
            return readIntoHeap(dst);
        }
        int position = dst.position();
        int r = Native.read(socket.fd(), addressOf(dst) + position, dst.remaining());
        if (r > 0) {
            dst.position(position + r);
            return r;
        }
        if (r == 0) {
            return -1;
        }
        return r == -Errors.EAGAIN ? 0 : Errors.check("read", r);
    }

    /** Bytes written, 0 if the socket's send buffer is full. */
    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!src.isDirect()) {
            return writeFromHeap(src);
        }
        int position = src.position();
        int r = Native.write(socket.fd(), addressOf(src) + position, src.remaining());
        if (r >= 0) {
            src.position(position + r);
            return r;
        }
        return r == -Errors.EAGAIN ? 0 : Errors.check("send", r);
    }

    private int readIntoHeap(ByteBuffer dst) throws IOException {
        ByteBuffer tmp = scratch(dst.remaining());
        int r = read(tmp);
        if (r > 0) {
            dst.put(tmp.flip());
        }
        return r;
    }

    private int writeFromHeap(ByteBuffer src) throws IOException {
        ByteBuffer tmp = scratch(src.remaining());
        tmp.put(src.duplicate().limit(src.position() + tmp.remaining())).flip();
        int r = write(tmp);
        src.position(src.position() + r);
        return r;
    }

    private ByteBuffer scratch(int wanted) {
        if (scratch == null) {
            scratch = ByteBuffer.allocateDirect(64 * 1024);
        }
        return scratch.clear().limit(Math.min(wanted, scratch.capacity()));
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            int r = read(dsts[i]);
            if (r <= 0) {
                return total == 0 ? r : total;
            }
            total += r;
            if (dsts[i].hasRemaining()) {
                break;
            }
        }
        return total;
    }

    @Override
    public long read(ByteBuffer[] dsts) throws IOException {
        return read(dsts, 0, dsts.length);
    }

    /** One {@code sendmsg} of up to {@link #MAX_GATHER} direct buffers; bytes written, 0 if the socket is full. */
    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        Iovecs iovecs = IOVECS.get();
        ByteBuffer iov = iovecs.memory;
        int count = Math.min(length, MAX_GATHER);
        for (int i = 0; i < count; i++) {
            ByteBuffer src = srcs[offset + i];
            long base = addressOf(src) + src.position();
            int at = i * IOV_SIZE;
            if (IOV_SIZE == 16) {
                iov.putLong(at, base).putLong(at + 8, src.remaining());
            } else {
                iov.putInt(at, (int) base).putInt(at + 4, src.remaining());
            }
        }
        long r = Native.writev(socket.fd(), iovecs.address, count);
        if (r == -Errors.EAGAIN) {
            return 0;
        }
        long left = Errors.check("sendmsg", r);
        for (int i = offset; left > 0; i++) {
            int n = (int) Math.min(left, srcs[i].remaining());
            srcs[i].position(srcs[i].position() + n);
            left -= n;
        }
        return r;
    }

    @Override
    public long write(ByteBuffer[] srcs) throws IOException {
        return write(srcs, 0, srcs.length);
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** A thread's iovec array and its address. */
    private static final class Iovecs {
        final ByteBuffer memory = ByteBuffer.allocateDirect(MAX_GATHER * IOV_SIZE).order(ByteOrder.nativeOrder());
        final long address = Native.bufferAddress(memory);
    }
}
