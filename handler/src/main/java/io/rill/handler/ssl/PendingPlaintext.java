package io.rill.handler.ssl;

import java.util.ArrayDeque;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.channel.Channel;
import io.rill.util.concurrent.Promise;

/**
 * Plaintext written to an {@link SslHandler} and not yet encrypted, with each write's promise.
 * {@link #removeRecord} hands out the next record's worth: small writes are gathered (copied)
 * into one buffer so that many small writes cost one record, not one record each; a write of a
 * full record or more is sliced without copying.
 *
 * <p>A write's promise is handed out with the record that holds its last byte, so it completes
 * when all of it has been written.
 */
final class PendingPlaintext {

    private final ArrayDeque<ByteBuf> buffers = new ArrayDeque<>();
    /** Parallel to {@link #buffers}. */
    private final ArrayDeque<Promise<Void>> promises = new ArrayDeque<>();
    private long readableBytes;
    /** The part of {@link #readableBytes} counted toward the channel's writability. */
    private long countedBytes;

    void add(ByteBuf buf, Promise<Void> promise) {
        buffers.add(buf);
        promises.add(promise);
        readableBytes += buf.readableBytes();
    }

    boolean isEmpty() {
        return buffers.isEmpty();
    }

    long readableBytes() {
        return readableBytes;
    }

    /** Counts what this queue holds now toward {@code channel}'s writability; true if that count grew. */
    boolean syncWritability(Channel channel) {
        long delta = readableBytes - countedBytes;
        countedBytes = readableBytes;
        if (delta > 0) {
            channel.incrementPendingOutboundBytes(delta);
        } else if (delta < 0) {
            channel.decrementPendingOutboundBytes(-delta);
        }
        return delta > 0;
    }

    /**
     * Up to {@code max} bytes from the head of the queue as one buffer the caller releases; the
     * promises of writes it completes are added to {@code completed}. Null when empty. Gathered
     * writes are copied into a direct buffer when {@code direct}, a heap one otherwise.
     */
    ByteBuf removeRecord(ByteBufAllocator alloc, boolean direct, int max, List<Promise<Void>> completed) {
        ByteBuf head = buffers.peek();
        if (head == null) {
            return null;
        }
        int headBytes = head.readableBytes();
        if (headBytes >= max || buffers.size() == 1) {
            return takeFromHead(Math.min(max, headBytes), completed);
        }
        int size = (int) Math.min(max, readableBytes);
        ByteBuf record = direct ? alloc.directBuffer(size) : alloc.heapBuffer(size);
        while (record.isWritable() && !buffers.isEmpty()) {
            ByteBuf next = buffers.peek();
            int n = Math.min(record.writableBytes(), next.readableBytes());
            record.writeBytes(next, next.readerIndex(), n);
            next.skipBytes(n);
            readableBytes -= n;
            if (!next.isReadable()) {
                buffers.remove().release();
                completed.add(promises.remove());
            }
        }
        return record;
    }

    private ByteBuf takeFromHead(int n, List<Promise<Void>> completed) {
        ByteBuf head = buffers.peek();
        readableBytes -= n;
        if (n == head.readableBytes()) {
            buffers.remove();
            completed.add(promises.remove());
            return head;
        }
        return head.readRetainedSlice(n);
    }

    /** Releases every buffer and fails every promise with {@code cause}. */
    void failAll(Throwable cause) {
        ByteBuf buf;
        while ((buf = buffers.poll()) != null) {
            buf.release();
            promises.remove().tryFailure(cause);
        }
        readableBytes = 0;
    }
}
