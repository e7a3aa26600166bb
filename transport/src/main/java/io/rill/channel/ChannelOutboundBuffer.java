package io.rill.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Predicate;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.util.InternalLogger;
import io.rill.buffer.ByteBuf;
import io.rill.util.RillProperties;
import io.rill.util.ObjectPool;
import io.rill.util.concurrent.FastThreadLocal;
import io.rill.util.concurrent.Promise;

/**
 * The writes a channel has accepted but not yet handed to the operating system.
 *
 * <pre>
 *   flushedEntry ──► e ──► e ──► unflushedEntry ──► e ──► e == tailEntry
 *   └─ flushed: being written by doWrite ─┘└─ written, waiting for flush() ─┘
 * </pre>
 * {@code write} appends at the tail; {@code flush} moves the boundary to the tail; the
 * transport's {@code doWrite} consumes from {@link #current()} and {@link #remove()}s each
 * message once it is fully written (or {@link #removeBytes(long)} for byte messages written
 * partially).
 *
 * <p>Every pending message counts its size plus {@link RillProperties#CHANNEL_OUTBOUND_ENTRY_OVERHEAD}
 * towards {@link #totalPendingWriteBytes()}; crossing the channel's {@link WriteBufferWaterMark}
 * flips writability and fires {@code channelWritabilityChanged} once per flip. Bits 1..31 of
 * the writability word are user-defined flags: the channel is writable only when all are set.
 *
 * <p>Confined to the channel's event loop, except the writability queries, which any thread may make.
 */
public final class ChannelOutboundBuffer {

    private static final InternalLogger LOG = InternalLogger.get(ChannelOutboundBuffer.class);
    private static final VarHandle TOTAL_PENDING;
    private static final VarHandle UNWRITABLE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TOTAL_PENDING = lookup.findVarHandle(ChannelOutboundBuffer.class, "totalPendingSize", long.class);
            UNWRITABLE = lookup.findVarHandle(ChannelOutboundBuffer.class, "unwritable", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Per-thread array that {@link #nioBuffers} fills: a gathering write needs no allocation. */
    private static final FastThreadLocal<ByteBuffer[]> NIO_BUFFERS = new FastThreadLocal<>() {
        @Override
        protected ByteBuffer[] initialValue() {
            return new ByteBuffer[64];
        }
    };

    private final AbstractChannel channel;

    /** First flushed entry not yet written; null when nothing is flushed. */
    private Entry flushedEntry;
    /** First entry written but not flushed; null when every entry is flushed. */
    private Entry unflushedEntry;
    /** Last entry; null when empty. */
    private Entry tailEntry;
    /** Entries from flushedEntry up to (excluding) unflushedEntry. */
    private int flushed;
    /** True while failing entries, whose promise listeners may re-enter with more writes or a close. */
    private boolean inFail;
    /** Bytes written to the peer so far; loop-confined. */
    private long bytesWritten;

    /** Buffers filled in by the last nioBuffers() call. */
    private int nioBufferCount;
    /** Bytes in those buffers. */
    private long nioBufferSize;

    /**
     * Sum of the pending sizes of all entries, overhead included. The event loop is its only writer
     * (see {@link #incrementPendingOutboundBytes}); other threads read it.
     */
    private volatile long totalPendingSize;
    /** 0 when writable; bit 0 = above the high water mark, bits 1..31 = user-defined flags cleared. */
    private volatile int unwritable;

    ChannelOutboundBuffer(AbstractChannel channel) {
        this.channel = channel;
    }

    // ---------------------------------------------------------------- adding

    /**
     * Appends {@code msg}, counted as {@code size} bytes, to be completed through {@code promise}.
     *
     * @param msg the message; the buffer owns it from now on and releases it when removed
     * @param size its size for the water marks
     * @param promise completed when the message is written or fails
     */
    public void addMessage(Object msg, int size, Promise<Void> promise) {
        Entry entry = Entry.newInstance(msg, size, pendingSize(size), promise);
        if (tailEntry == null) {
            flushedEntry = null;
        } else {
            tailEntry.next = entry;
        }
        tailEntry = entry;
        if (unflushedEntry == null) {
            unflushedEntry = entry;
        }
        incrementPendingOutboundBytes(entry.pendingSize);
    }

    /** Marks everything added so far as flushed; entries whose promise was cancelled are dropped here. */
    public void addFlush() {
        Entry entry = unflushedEntry;
        if (entry == null) {
            return;
        }
        if (flushedEntry == null) {
            flushedEntry = entry;
        }
        do {
            flushed++;
            if (!entry.promise.setUncancellable()) {
                // Cancelled before it reached the wire: free it now; current() skips the entry later.
                long pending = entry.cancel();
                decrementPendingOutboundBytes(pending, true);
            }
            entry = entry.next;
        } while (entry != null);
        unflushedEntry = null;
    }

    private static long pendingSize(int size) {
        return (long) size + RillProperties.CHANNEL_OUTBOUND_ENTRY_OVERHEAD;
    }

    // ---------------------------------------------------------------- consuming

    /** {@return the first flushed message, or null if none is flushed} The buffer still owns it. */
    public Object current() {
        Entry entry = firstLiveFlushed();
        return entry == null ? null : entry.msg;
    }

    /**
     * Shows {@code visitor} the flushed messages in order, skipping cancelled ones, until it
     * returns false or they end; nothing is removed. For a transport that writes several messages
     * in one system call ({@code sendmmsg}) and then {@link #remove()}s those that went.
     *
     * @param visitor returns true to see the next message
     */
    public void forEachFlushedMessage(Predicate<Object> visitor) {
        for (Entry e = flushedEntry; e != null && e != unflushedEntry; e = e.next) {
            if (!e.cancelled && !visitor.test(e.msg)) {
                return;
            }
        }
    }

    /** The first flushed entry that was not cancelled; cancelled ones before it are dropped. */
    private Entry firstLiveFlushed() {
        Entry e;
        while ((e = flushedEntry) != null && e.cancelled) {
            unlinkFirstFlushed(e);
        }
        return e;
    }

    /**
     * Removes the first flushed message, releases it and succeeds its promise; false if there was none.
     *
     * @return true if a message was removed
     */
    public boolean remove() {
        Entry e = firstLiveFlushed();
        if (e == null) {
            return false;
        }
        unlinkFirstFlushed(e);
        if (!e.cancelled) {
            ReferenceCountUtil.safeRelease(e.msg);
            trySucceed(e.promise);
            decrementPendingOutboundBytes(e.pendingSize, true);
        }
        e.recycle();
        return true;
    }

    /**
     * Removes the first flushed message, releases it and fails its promise with {@code cause}.
     *
     * @param cause the failure
     * @return true if a message was removed
     */
    public boolean remove(Throwable cause) {
        return remove(cause, true);
    }

    private boolean remove(Throwable cause, boolean notifyWritability) {
        Entry e = firstLiveFlushed();
        if (e == null) {
            return false;
        }
        unlinkFirstFlushed(e);
        if (!e.cancelled) {
            ReferenceCountUtil.safeRelease(e.msg);
            tryFail(e.promise, cause);
            decrementPendingOutboundBytes(e.pendingSize, notifyWritability);
        }
        e.recycle();
        return true;
    }

    /**
     * Unlinks {@code first}, which must be {@link #flushedEntry}, the head of the list. Its
     * successor heads the flushed part if that part goes on past it; otherwise the successor is
     * the first unflushed entry (already {@link #unflushedEntry}) or nothing, and then the list
     * is empty and loses its tail too.
     */
    private void unlinkFirstFlushed(Entry first) {
        Entry next = first.next;
        first.next = null;
        flushed--;
        flushedEntry = flushed > 0 ? next : null;
        if (next == null) {
            tailEntry = null;
        }
    }

    /** {@return the number of flushed messages not yet removed} */
    public int size() {
        return flushed;
    }

    /** {@return true if no flushed message is waiting} */
    public boolean isEmpty() {
        return flushed == 0;
    }

    /** True if something is flushed and waiting for the socket. */
    boolean hasFlushed() {
        return flushed != 0;
    }

    // ---------------------------------------------------------------- gathering writes

    /**
     * The readable bytes of the leading flushed {@link ByteBuf} messages as {@link ByteBuffer}s
     * for one gathering write: at most {@code maxCount} buffers and, unless the very first
     * message alone is larger, at most {@code maxBytes} bytes. Stops at the first message that is
     * not a ByteBuf. The array belongs to the calling thread and is reused by the next call;
     * only the first {@link #nioBufferCount()} elements are meaningful.
     *
     * @param maxCount the most buffers to return
     * @param maxBytes the most bytes to cover
     * @return the shared array; only the first {@link #nioBufferCount()} entries are valid
     */
    public ByteBuffer[] nioBuffers(int maxCount, long maxBytes) {
        if (maxCount <= 0 || maxBytes <= 0) {
            throw new IllegalArgumentException("maxCount: " + maxCount + ", maxBytes: " + maxBytes + " (expected: > 0)");
        }
        ByteBuffer[] array = NIO_BUFFERS.get();
        int count = 0;
        long bytes = 0;
        for (Entry e = flushedEntry; e != null && e != unflushedEntry && count < maxCount; e = e.next) {
            if (e.cancelled) {
                continue;
            }
            if (!(e.msg instanceof ByteBuf buf)) {
                break;
            }
            int readable = buf.readableBytes();
            if (readable == 0) {
                continue;
            }
            if (count > 0 && maxBytes - readable < bytes) {
                break;
            }
            bytes += readable;
            if (buf.nioBufferCount() == 1) {
                // The thread's reusable view for this slot: building a gathering write allocates nothing.
                array = addView(array, count, buf.ioView(buf.readerIndex(), readable, count));
                count++;
                continue;
            }
            if (e.nioBuffers == null) {
                // Cached per entry: a write that stalls is retried with the same views, no new garbage.
                e.nioBuffers = buf.nioBuffers(buf.readerIndex(), readable);
            }
            ByteBuffer[] views = e.nioBuffers;
            for (int i = 0; i < views.length && count < maxCount; i++) {
                if (views[i].hasRemaining()) {
                    array = addView(array, count++, views[i]);
                }
            }
        }
        nioBufferCount = count;
        nioBufferSize = bytes;
        return array;
    }

    /** Stores {@code view} at {@code index} of the thread's array, growing it when full. */
    private static ByteBuffer[] addView(ByteBuffer[] array, int index, ByteBuffer view) {
        if (index == array.length) {
            array = Arrays.copyOf(array, array.length << 1);
            NIO_BUFFERS.set(array);
        }
        array[index] = view;
        return array;
    }

    /** {@return the number of buffers filled in by the last {@link #nioBuffers} call} */
    public int nioBufferCount() {
        return nioBufferCount;
    }

    /** {@return the bytes in the buffers of the last {@link #nioBuffers} call} */
    public long nioBufferSize() {
        return nioBufferSize;
    }

    /**
     * The transport wrote {@code written} bytes from the leading flushed ByteBuf messages:
     * removes (succeeding their promises) those written completely and advances the reader
     * index of a message written in part.
     *
     * @param written the bytes the transport wrote
     */
    public void removeBytes(long written) {
        bytesWritten += written;
        for (;;) {
            Entry e = firstLiveFlushed();
            if (e == null || !(e.msg instanceof ByteBuf buf)) {
                break;
            }
            int readerIndex = buf.readerIndex();
            int readable = buf.writerIndex() - readerIndex;
            if (readable <= written) {
                written -= readable;
                remove();
            } else {
                if (written > 0) {
                    buf.readerIndex(readerIndex + (int) written);
                    // The cached views may not have moved with us (a caller that did not write through them).
                    e.nioBuffers = null;
                }
                break;
            }
        }
        clearNioBuffers();
    }

    /**
     * The transport wrote {@code bytes} of a message it does not remove through
     * {@link #removeBytes} (a {@link FileRegion}): counted in {@link #totalBytesWritten()}.
     *
     * @param bytes the bytes written
     */
    public void countWritten(long bytes) {
        bytesWritten += bytes;
    }

    /**
     * {@return the bytes the transport has written to the peer since the channel opened} It grows while output
     * drains.
     */
    public long totalBytesWritten() {
        return bytesWritten;
    }

    /** Drops the thread's references to our buffers, so they are not pinned after being released. */
    private void clearNioBuffers() {
        int count = nioBufferCount;
        if (count > 0) {
            nioBufferCount = 0;
            nioBufferSize = 0;
            Arrays.fill(NIO_BUFFERS.get(), 0, count, null);
        }
    }

    // ---------------------------------------------------------------- failing

    /** Fails every flushed message with {@code cause}; unflushed ones stay. */
    void failFlushed(Throwable cause, boolean notifyWritability) {
        if (inFail) {
            return;
        }
        inFail = true;
        try {
            while (remove(cause, notifyWritability)) {
                // each pass removes one
            }
        } finally {
            inFail = false;
        }
    }

    /** The channel closed: fails and releases everything, flushed or not. */
    void close(Throwable cause) {
        if (inFail) {
            // A listener of a failing promise closed the channel; finish the current pass first.
            channel.eventLoop().execute(() -> close(cause));
            return;
        }
        inFail = true;
        try {
            while (remove(cause, false)) {
                // flushed entries first
            }
            for (Entry e = unflushedEntry; e != null; ) {
                if (!e.cancelled) {
                    ReferenceCountUtil.safeRelease(e.msg);
                    tryFail(e.promise, cause);
                    decrementPendingOutboundBytes(e.pendingSize, false);
                }
                Entry next = e.next;
                e.recycle();
                e = next;
            }
            unflushedEntry = null;
            tailEntry = null;
        } finally {
            inFail = false;
        }
        clearNioBuffers();
    }

    private static void trySucceed(Promise<Void> promise) {
        if (!promise.trySuccess(null) && !VoidChannelPromise.isVoid(promise) && !promise.isDone()) {
            LOG.warn("Could not succeed {}", promise);
        }
    }

    private static void tryFail(Promise<Void> promise, Throwable cause) {
        if (!promise.tryFailure(cause) && !VoidChannelPromise.isVoid(promise) && LOG.isDebugEnabled()) {
            LOG.debug("Could not fail {} with {}: complete already", promise, cause);
        }
    }

    // ---------------------------------------------------------------- writability

    /** {@return the pending bytes, entry overhead included} */
    public long totalPendingWriteBytes() {
        return totalPendingSize;
    }

    void incrementPendingOutboundBytes(long size) {
        if (size == 0) {
            return;
        }
        // A plain sum and an ordered store: with one writer nothing can be lost, and the store
        // spares the locked instruction of getAndAdd, which would first wait for every load in flight.
        long now = totalPendingSize + size;
        TOTAL_PENDING.setRelease(this, now);
        if (now > channel.config().getWriteBufferWaterMark().high()) {
            setUnwritable(1);
        }
    }

    void decrementPendingOutboundBytes(long size, boolean notify) {
        if (size == 0) {
            return;
        }
        long now = totalPendingSize - size;
        TOTAL_PENDING.setRelease(this, now);
        if (notify && now <= channel.config().getWriteBufferWaterMark().low()) {
            setWritable(1);
        }
    }

    /**
     * {@return true if below the high water mark (with the hysteresis of the low one) and all user flags are
     * set}
     */
    public boolean isWritable() {
        return unwritable == 0;
    }

    /**
     * {@return the user-defined writability flag {@code index} (1..31); true unless cleared}
     *
     * @param index the flag, 1 to 31
     */
    public boolean getUserDefinedWritability(int index) {
        return (unwritable & userBit(index)) == 0;
    }

    /**
     * Sets or clears user-defined writability flag {@code index} (1..31); any thread.
     *
     * @param index the flag, 1 to 31
     * @param writable false to make the channel unwritable until it is set again
     */
    public void setUserDefinedWritability(int index, boolean writable) {
        if (writable) {
            setWritable(userBit(index));
        } else {
            setUnwritable(userBit(index));
        }
    }

    private static int userBit(int index) {
        if (index < 1 || index > 31) {
            throw new IllegalArgumentException("writability flag " + index + " is not one of 1 to 31");
        }
        return 1 << index;
    }

    /**
     * Marks {@code bit} unwritable. One atomic OR does it; only the call that turned the word
     * from 0 (writable) to non-zero fires the event, so racing callers fire it once.
     */
    private void setUnwritable(int bit) {
        int before = (int) UNWRITABLE.getAndBitwiseOr(this, bit);
        if (before == 0) {
            ChannelMetrics.of(channel.eventLoop()).writabilityChanged();
            channel.pipeline().fireChannelWritabilityChanged();
        }
    }

    /** Clears {@code bit}; only the call that cleared the last set bit fires the event. */
    private void setWritable(int bit) {
        int before = (int) UNWRITABLE.getAndBitwiseAnd(this, ~bit);
        if (before != 0 && (before & ~bit) == 0) {
            ChannelMetrics.of(channel.eventLoop()).writabilityChanged();
            channel.pipeline().fireChannelWritabilityChanged();
        }
    }

    /** {@return the bytes that may still be added before the high water mark is crossed; 0 when unwritable} */
    public long bytesBeforeUnwritable() {
        if (unwritable != 0) {
            return 0;
        }
        return Math.max(0, channel.config().getWriteBufferWaterMark().high() - totalPendingSize + 1);
    }

    /** {@return the bytes that must drain before the buffer is writable again; 0 when writable} */
    public long bytesBeforeWritable() {
        if (unwritable == 0) {
            return 0;
        }
        return Math.max(0, totalPendingSize - channel.config().getWriteBufferWaterMark().low());
    }

    /**
     * One queued write. Entries are recycled through a per-thread pool: one is made per write
     * otherwise, and only this buffer's linked list ever references one.
     */
    private static final class Entry {
        private static final ObjectPool<Entry> POOL = ObjectPool.newPool(Entry::new);

        private final ObjectPool.Handle<Entry> handle;
        /** The message; null once cancelled (it was released then). */
        Object msg;
        /** Bytes the message counts as (readable bytes for a buffer); 0 once cancelled. */
        int size;
        /** size + entry overhead, as added to the pending total; 0 once cancelled. */
        long pendingSize;
        Promise<Void> promise;
        /**
         * A message made of several buffers (a composite): its readable bytes as ByteBuffers, made on the
         * first gathering write; null until then. A one-region message needs none: it lends the thread's views.
         */
        ByteBuffer[] nioBuffers;
        /** Next entry towards the tail. */
        Entry next;
        /** True if the promise was cancelled before flush; the message is released already. */
        boolean cancelled;

        private Entry(ObjectPool.Handle<Entry> handle) {
            this.handle = handle;
        }

        static Entry newInstance(Object msg, int size, long pendingSize, Promise<Void> promise) {
            Entry e = POOL.get();
            e.msg = msg;
            e.size = size;
            e.pendingSize = pendingSize;
            e.promise = promise;
            return e;
        }

        /** Clears every field (so nothing is pinned) and hands the entry back to the pool. */
        void recycle() {
            msg = null;
            promise = null;
            nioBuffers = null;
            next = null;
            size = 0;
            pendingSize = 0;
            cancelled = false;
            handle.recycle(this);
        }

        /** Releases the message; returns the pending size to take off the total. */
        long cancel() {
            if (cancelled) {
                return 0;
            }
            cancelled = true;
            long pending = pendingSize;
            ReferenceCountUtil.safeRelease(msg);
            msg = null;
            nioBuffers = null;
            size = 0;
            pendingSize = 0;
            return pending;
        }
    }

    /** Touches this buffer's bookkeeping; see {@code io.rill.channel.internal.ChannelWarmUp}. */
    int warmUp() {
        return flushed;
    }
}
