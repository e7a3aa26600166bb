package io.rill.handler.codec.http.internal;

/**
 * What a handler remembers about each request until its response is written, in order, in a
 * fixed ring: pipelined requests beyond its capacity are only counted, and their responses get
 * {@code null} (the handler's "nothing known" answer). So a client that pipelines 100 000
 * requests and never reads costs a fixed amount of memory (docs/security-cases.md, case H1-17).
 *
 * <p>Order is kept because once a request overflows, every later one is counted too until the
 * overflow drains: the ring only ever holds requests older than the counted ones. Loop-confined.
 *
 * @param <T> what is remembered per request
 */
public final class PendingRequests<T> {

    /** Entries, oldest at {@code head}; {@code [head, head + count)} modulo the length are in use. */
    private final Object[] ring;
    private int head;
    private int count;
    /** Requests after the ring filled up, answered with null. */
    private long overflow;

    public PendingRequests(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        ring = new Object[capacity];
    }

    /** Remembers {@code value} for the newest request (or only counts it, when the ring is full). */
    public void add(T value) {
        if (overflow > 0 || count == ring.length) {
            overflow++;
            return;
        }
        ring[(head + count) % ring.length] = value;
        count++;
    }

    /** What was remembered for the oldest request awaiting its response, now answered; null if nothing. */
    @SuppressWarnings("unchecked")
    public T poll() {
        if (count > 0) {
            T value = (T) ring[head];
            ring[head] = null;
            head = (head + 1) % ring.length;
            count--;
            return value;
        }
        if (overflow > 0) {
            overflow--;
        }
        return null;
    }
}
