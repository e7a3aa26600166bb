package io.rill.handler.codec.http2;

/**
 * The last {@code capacity} streams a connection closed, each with whether we reset it, so that a
 * frame still in flight for one of them is told apart from a frame on a stream never opened
 * (RFC 9113 §5.1, §6.4). The oldest is forgotten first; remembering a stream again only updates
 * its flag. No allocation per stream: ids live in an {@link IntMap} (Boolean values are the two
 * shared constants) and in a ring that gives the order of forgetting.
 */
final class RecentlyClosedStreams {

    private final IntMap<Boolean> resetByUs = new IntMap<>();
    /** Remembered ids in the order they were first remembered, oldest at {@link #oldest}; made on first use. */
    private int[] order;
    private int oldest;
    private final int capacity;

    RecentlyClosedStreams(int capacity) {
        this.capacity = capacity;
    }

    void remember(int streamId, boolean reset) {
        if (resetByUs.put(streamId, reset) != null) {
            return;
        }
        if (order == null) {
            order = new int[capacity];
        }
        int count = resetByUs.size() - 1; // ids in the ring before this one
        if (count == capacity) {
            resetByUs.remove(order[oldest]);
            order[oldest] = streamId;
            oldest = (oldest + 1) % capacity;
        } else {
            order[(oldest + count) % capacity] = streamId;
        }
    }

    boolean contains(int streamId) {
        return resetByUs.containsKey(streamId);
    }

    /** Whether we reset {@code streamId}, or null if it is not remembered. */
    Boolean resetByUs(int streamId) {
        return resetByUs.get(streamId);
    }
}
