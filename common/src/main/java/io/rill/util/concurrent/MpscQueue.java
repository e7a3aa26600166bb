package io.rill.util.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded, lock-free multi-producer single-consumer FIFO queue: the task queue of an executor.
 *
 * <p>A linked list in the style of Dmitry Vyukov's MPSC queue: a producer swaps itself in as the
 * tail with one atomic exchange (wait-free), then links the previous tail to its node. The consumer
 * alone follows {@code head.next}. Between the exchange and the link a producer's node is briefly
 * invisible, so {@link #poll()} may return null while {@link #size()} is positive; the consumer
 * treats that as "not yet" and retries later.
 *
 * <pre>
 *  head (consumed stub) ─► n1 ─► n2 ─► ... ─► tail      producers: tail = xchg(tail, n); prev.next = n
 * </pre>
 */
final class MpscQueue<E> {

    private static final VarHandle TAIL;
    private static final VarHandle SIZE;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(MpscQueue.class, "tail", Node.class);
            SIZE = lookup.findVarHandle(MpscQueue.class, "size", int.class);
            NEXT = lookup.findVarHandle(Node.class, "next", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        // The first use of each VarHandle access links it, up to a few milliseconds in a fresh JVM:
        // done here, when the first executor is made, that cost is not the first task's wait.
        MpscQueue<Object> warm = new MpscQueue<>(1);
        warm.offer(warm);
        warm.poll();
    }

    private final int capacity;
    /** The last consumed node (a stub); only the consumer reads or writes it. */
    private Node<E> head;
    /** The most recently offered node; producers swap it atomically. */
    @SuppressWarnings("unused")
    private volatile Node<E> tail;
    /** Elements offered and not yet polled; may briefly exceed capacity by the racing producers' count. */
    @SuppressWarnings("unused")
    private volatile int size;

    MpscQueue(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: > 0)");
        }
        this.capacity = capacity;
        Node<E> stub = new Node<>(null);
        head = stub;
        tail = stub;
    }

    /** Appends {@code e}; returns false when the queue is full. Safe from any thread. */
    boolean offer(E e) {
        if ((int) SIZE.getAndAdd(this, 1) >= capacity) {
            SIZE.getAndAdd(this, -1);
            return false;
        }
        Node<E> node = new Node<>(e);
        @SuppressWarnings("unchecked")
        Node<E> prev = (Node<E>) TAIL.getAndSet(this, node);
        NEXT.setRelease(prev, node);
        return true;
    }

    /** Removes the oldest visible element, or returns null. Consumer thread only. */
    E poll() {
        @SuppressWarnings("unchecked")
        Node<E> next = (Node<E>) NEXT.getAcquire(head);
        if (next == null) {
            return null;
        }
        E value = next.value;
        next.value = null;
        head.next = head; // unlink the old stub so a retained node cannot keep a chain alive
        head = next;
        SIZE.getAndAdd(this, -1);
        return value;
    }

    /** True when no element is offered or in flight; exact from the consumer thread. */
    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return Math.max(0, size);
    }

    private static final class Node<E> {
        E value;
        volatile Node<E> next;

        Node(E value) {
            this.value = value;
        }
    }
}
