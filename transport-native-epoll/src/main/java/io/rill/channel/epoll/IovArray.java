package io.rill.channel.epoll;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.rill.util.concurrent.FastThreadLocal;

/**
 * A native array of {@code struct iovec} for one gathering write, filled in place from the
 * outbound buffer's views and reused for every write of the loop's channels (one per loop
 * thread, so no channel pays for its own).
 *
 * <pre>
 *   | void *iov_base | size_t iov_len |  x IOV_MAX   (16 bytes each on 64-bit Linux)
 * </pre>
 */
final class IovArray {

    private static final int IOV_SIZE = Native.iovSize();
    /** writev refuses more than IOV_MAX entries (1024 on Linux). */
    static final int MAX_COUNT = Math.min(1024, Native.iovMax());

    private static final FastThreadLocal<IovArray> PER_THREAD = new FastThreadLocal<>() {
        @Override
        protected IovArray initialValue() {
            return new IovArray();
        }
    };

    private final ByteBuffer memory = ByteBuffer.allocateDirect(MAX_COUNT * IOV_SIZE).order(ByteOrder.nativeOrder());
    private final long address = Native.bufferAddress(memory);
    private int count;

    private IovArray() {
    }

    /** The calling thread's array, cleared. */
    static IovArray forThisThread() {
        IovArray iov = PER_THREAD.get();
        iov.count = 0;
        return iov;
    }

    /** Adds the remaining bytes of each of the first {@code n} views, up to {@link #MAX_COUNT}. */
    void addAll(ByteBuffer[] views, int n, DirectIo io) {
        for (int i = 0; i < n && count < MAX_COUNT; i++) {
            ByteBuffer view = views[i];
            add(io.addressOf(view) + view.position(), view.remaining());
        }
    }

    private void add(long base, long length) {
        int offset = count * IOV_SIZE;
        if (IOV_SIZE == 16) {
            memory.putLong(offset, base);
            memory.putLong(offset + 8, length);
        } else {
            memory.putInt(offset, (int) base);
            memory.putInt(offset + 4, (int) length);
        }
        count++;
    }

    int count() {
        return count;
    }

    long address() {
        return address;
    }
}
