package io.rill.channel;

/**
 * The low and high water marks of a channel's outbound buffer, in bytes of pending writes.
 *
 * <p>The channel becomes unwritable when its pending bytes exceed {@code high} and writable
 * again when they drop to {@code low} or below; between the two it keeps its state, so it
 * does not flap with every write. Each change fires {@code channelWritabilityChanged} once.
 * Defaults: 32 KiB / 64 KiB, a few socket-buffer-fulls, enough to keep a fast link busy.
 */
public final class WriteBufferWaterMark {

    /** 32 KiB low, 64 KiB high. */
    public static final WriteBufferWaterMark DEFAULT = new WriteBufferWaterMark(32 * 1024, 64 * 1024);

    /** Pending bytes at or below which an unwritable channel becomes writable; 0 ≤ low ≤ high. */
    private final int low;
    /** Pending bytes above which the channel becomes unwritable. */
    private final int high;

    /**
     * Marks at {@code low} and {@code high} pending bytes.
     *
     * @param low pending bytes at or below which the channel becomes writable again
     * @param high pending bytes above which the channel becomes unwritable
     * @throws IllegalArgumentException unless {@code 0 <= low <= high}
     */
    public WriteBufferWaterMark(int low, int high) {
        if (low < 0) {
            throw new IllegalArgumentException("low: " + low + " (expected: >= 0)");
        }
        if (high < low) {
            throw new IllegalArgumentException("high: " + high + " (expected: >= low " + low + ")");
        }
        this.low = low;
        this.high = high;
    }

    /** {@return the pending bytes at or below which an unwritable channel becomes writable} */
    public int low() {
        return low;
    }

    /** {@return the pending bytes above which the channel becomes unwritable} */
    public int high() {
        return high;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WriteBufferWaterMark w && w.low == low && w.high == high;
    }

    @Override
    public int hashCode() {
        return 31 * low + high;
    }

    @Override
    public String toString() {
        return "WriteBufferWaterMark(low: " + low + ", high: " + high + ')';
    }
}
