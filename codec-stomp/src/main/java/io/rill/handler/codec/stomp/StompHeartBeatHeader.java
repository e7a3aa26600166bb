package io.rill.handler.codec.stomp;

/**
 * The {@code heart-beat} header of CONNECT and CONNECTED (STOMP 1.2, "Heart-beating"): the
 * smallest interval at which its sender can send heart-beats, and the interval at which it would
 * like to receive them, in milliseconds, 0 for "cannot" and "does not want". Each side then sends
 * at the larger of what it can and what the other wants, or not at all if either is 0:
 * {@link #sendInterval(StompHeartBeatHeader)}.
 *
 * <p>A server that answers with its own header negotiates both directions from the client's, and
 * since it sends no faster than its own {@code canSendMillis} and expects no faster than its own
 * {@code wantsMillis}, a client cannot make it send or check more often than it chose.
 *
 * @param canSendMillis the smallest interval its sender can guarantee between heart-beats; 0: none
 * @param wantsMillis the interval its sender would like to receive heart-beats at; 0: none
 */
public record StompHeartBeatHeader(long canSendMillis, long wantsMillis) {

    /** No heart-beats either way: what a missing header means. */
    public static final StompHeartBeatHeader NONE = new StompHeartBeatHeader(0, 0);

    /** Longest value accepted by {@link #parse}: nine digits, about 11.5 days. */
    private static final int MAX_DIGITS = 9;

    /**
     * Checks the fields.
     *
     * @param canSendMillis the smallest interval its sender can guarantee between heart-beats; 0: none
     * @param wantsMillis the interval its sender would like to receive heart-beats at; 0: none
     */
    public StompHeartBeatHeader {
        if (canSendMillis < 0 || wantsMillis < 0) {
            throw new IllegalArgumentException("heart-beat intervals must be 0 or more: " + canSendMillis + "," + wantsMillis);
        }
    }

    /**
     * Parses a header value, {@code cx,cy} with two non-negative decimal numbers.
     *
     * @param value the header's value, or null when the frame has none
     * @return the two intervals; {@link #NONE} for null
     * @throws StompDecoderException if the value is not two numbers of at most nine digits separated by a comma
     */
    public static StompHeartBeatHeader parse(String value) {
        if (value == null) {
            return NONE;
        }
        int comma = value.indexOf(',');
        if (comma < 0) {
            throw new StompDecoderException("heart-beat header '" + value + "' is not two numbers separated by a comma");
        }
        return new StompHeartBeatHeader(number(value, 0, comma), number(value, comma + 1, value.length()));
    }

    private static long number(String value, int from, int to) {
        if (from == to || to - from > MAX_DIGITS) {
            throw new StompDecoderException("heart-beat header '" + value + "' needs numbers of 1 to " + MAX_DIGITS + " digits");
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                throw new StompDecoderException("heart-beat header '" + value + "' has a character that is not a digit: '" + c + "'");
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    /**
     * {@return how often the sender of this header must send heart-beats to the sender of
     * {@code peer}, in milliseconds; 0 for never}
     *
     * @param peer the other side's header
     */
    public long sendInterval(StompHeartBeatHeader peer) {
        return canSendMillis == 0 || peer.wantsMillis == 0 ? 0 : Math.max(canSendMillis, peer.wantsMillis);
    }

    /** {@return the header's value, {@code cx,cy}} */
    @Override
    public String toString() {
        return canSendMillis + "," + wantsMillis;
    }
}
