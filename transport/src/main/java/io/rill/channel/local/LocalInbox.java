package io.rill.channel.local;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;

/**
 * The messages a {@link LocalChannel}'s peer wrote and the channel has not read yet. The peer adds
 * on its loop (one producer); the owner takes on its own loop, or whoever closes releases.
 *
 * <p>Bounded at {@link #CAPACITY} messages or {@link #MAX_BYTES} bytes, whichever comes first (a
 * message is let in while the inbox is below both, so one large message always fits, and the
 * inbox never holds more than MAX_BYTES plus one message): a full inbox makes the writer stop with its messages
 * left in its own outbound buffer (where they count against its write-buffer water marks, so
 * {@code isWritable()} turns false as for a slow socket). The writer then marks itself waiting
 * and checks for space once more; the reader, after taking messages, clears the mark and resumes
 * the writer. Whichever side flips the mark acts, so the writer is neither lost nor resumed twice.
 */
final class LocalInbox {

    /** Most messages queued unread; a reader that does not read holds the writer back at this point. */
    static final int CAPACITY = 1024;
    /** Most buffered bytes queued unread, like a generous socket receive buffer. */
    static final long MAX_BYTES = 1 << 20;

    private final Queue<Object> messages = new ConcurrentLinkedQueue<>();
    /** Messages in {@link #messages}, counted on both sides; may briefly lag the queue by one. */
    private final AtomicInteger size = new AtomicInteger();
    /** Readable bytes of the queued buffers, counted like {@link #size}. */
    private final AtomicLong bytes = new AtomicLong();
    /** True while the writer stopped on a full inbox and waits to be resumed. */
    private final AtomicBoolean writerWaiting = new AtomicBoolean();

    boolean hasSpace() {
        return size.get() < CAPACITY && bytes.get() < MAX_BYTES;
    }

    /** Bytes {@code msg} counts as; it is not touched while queued, so this is the same at add and poll. */
    private static int sizeOf(Object msg) {
        return msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
    }

    /** Writer side: queues {@code msg}, whose reference now belongs to the inbox. */
    void add(Object msg) {
        size.incrementAndGet();
        bytes.addAndGet(sizeOf(msg));
        messages.add(msg);
    }

    /**
     * Writer side, on a full inbox: marks the writer waiting. Returns true if space appeared
     * meanwhile and the writer should go on now; false if the reader will resume it.
     */
    boolean waitForSpace() {
        writerWaiting.set(true);
        return hasSpace() && writerWaiting.compareAndSet(true, false);
    }

    /** Reader side: the oldest message, or null. */
    Object poll() {
        Object msg = messages.poll();
        if (msg != null) {
            size.decrementAndGet();
            bytes.addAndGet(-sizeOf(msg));
        }
        return msg;
    }

    boolean isEmpty() {
        return messages.isEmpty();
    }

    /** Reader side, after taking messages: true (once) if a waiting writer should now be resumed. */
    boolean takeWaitingWriter() {
        return hasSpace() && writerWaiting.compareAndSet(true, false);
    }

    /** Releases every queued message; safe from any thread, concurrently with the reader. */
    void releaseAll() {
        for (Object msg; (msg = poll()) != null; ) {
            ReferenceCountUtil.safeRelease(msg);
        }
    }
}
