package io.rill.channel;

/** Every read goes into a buffer of the same size: for datagrams of known size, or for tests. */
public final class FixedRecvByteBufAllocator implements RecvByteBufAllocator {

    /** Size of every read buffer; > 0. */
    private final int bufferSize;

    /**
     * An allocator that always predicts {@code bufferSize} bytes.
     *
     * @param bufferSize the size of every read buffer, above 0
     */
    public FixedRecvByteBufAllocator(int bufferSize) {
        if (bufferSize <= 0) {
            throw new IllegalArgumentException("bufferSize: " + bufferSize + " (expected: > 0)");
        }
        this.bufferSize = bufferSize;
    }

    @Override
    public Handle newHandle() {
        return new ReadBurstHandle() {
            @Override
            public int guess() {
                return bufferSize;
            }
        };
    }
}
