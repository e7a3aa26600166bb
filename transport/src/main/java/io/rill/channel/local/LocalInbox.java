package io.rill.channel.local;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.rill.buffer.ReferenceCountUtil;

/**
 * The messages a {@link LocalChannel}'s peer wrote and the channel has not read yet. The peer adds
 * on its loop (one producer); the owner takes on its own loop, or whoever closes releases.
 *
 * <p>Bounded at {@link #CAPACITY} messages: a full inbox makes the writer stop with its messages
 * left in its own outbound buffer (where they count against its write-buffer water marks, so
 * {@code isWritable()} turns false as for a slow socket). The writer then marks itself waiting
 * and checks for space once more; the reader, after taking messages, clears the mark and resumes
 * the writer. Whichever side flips the mark acts, so the writer is neither lost nor resumed twice.
 */
final class LocalInbox {

    /** Most messages queued unread; a reader that does not read holds the writer back at this point. */
    static final int CAPACITY = 1024;

    private final Queue<Object> messages = new ConcurrentLinkedQueue<>();
    /** Messages in {@link #messages}, counted on both sides; may briefly lag the queue by one. */
    private final AtomicInteger size = new AtomicInteger();
    /** True while the writer stopped on a full inbox and waits to be resumed. */
    private final AtomicBoolean writerWaiting = new AtomicBoolean();

    boolean hasSpace() {
        return size.get() < CAPACITY;
    }

    /** Writer side: queues {@code msg}, whose reference now belongs to the inbox. */
    void add(Object msg) {
        size.incrementAndGet();
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
