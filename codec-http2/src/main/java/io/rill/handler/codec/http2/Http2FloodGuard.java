package io.rill.handler.codec.http2;

/**
 * Ends connections whose peer makes the server work without asking for anything useful, the
 * attacks catalogued in docs/security-cases.md (HTTP/2 section):
 *
 * <ul>
 * <li>Frames that cost work but carry no request or content (SETTINGS, PING, PRIORITY,
 *     WINDOW_UPDATE, RST_STREAM, empty DATA, unknown types) spend a budget that useful work earns
 *     back: each stream opened earns {@value #EARNED_PER_STREAM}, each KiB of content sent or
 *     received one. The budget starts at {@value #INITIAL_BUDGET} and holds at most
 *     {@value #MAX_BUDGET}. A SETTINGS, PING or empty-DATA flood runs it down and gets GOAWAY
 *     ENHANCE_YOUR_CALM, whatever the rate; a client that sends a WINDOW_UPDATE per 16 KiB read
 *     never comes close.</li>
 * <li>Resets: streams the peer opened and then reset ("rapid reset", CVE-2023-44487), and
 *     streams we had to reset because the peer broke a stream-level rule ("MadeYouReset",
 *     CVE-2025-55163), both end streams whose work the server may already have started. At most
 *     {@link #maxResets} of them per {@link #resetWindowNanos}, then GOAWAY ENHANCE_YOUR_CALM.</li>
 * </ul>
 */
final class Http2FloodGuard {

    static final int INITIAL_BUDGET = 1_000;
    static final int MAX_BUDGET = 10_000;
    static final int EARNED_PER_STREAM = 10;

    private final int maxResets;
    private final long resetWindowNanos;

    private long budget = INITIAL_BUDGET;
    /** Content bytes not yet turned into budget (under 1 KiB). */
    private long contentRemainder;
    private int resetsInWindow;
    private long resetWindowStart;

    Http2FloodGuard(int maxResets, long resetWindowNanos) {
        this.maxResets = maxResets;
        this.resetWindowNanos = resetWindowNanos;
    }

    /** A frame that asked for nothing useful. */
    void cheapFrame(String what) throws Http2Exception {
        if (--budget < 0) {
            throw Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM, "too many frames without requests or"
                    + " content (the last one: " + what + "); the flood budget of " + MAX_BUDGET + " is spent");
        }
    }

    void streamOpened() {
        earn(EARNED_PER_STREAM);
    }

    void content(int bytes) {
        contentRemainder += bytes;
        if (contentRemainder >= 1024) {
            earn(contentRemainder >> 10);
            contentRemainder &= 1023;
        }
    }

    /** A stream ended by a reset that the peer sent or caused. */
    void reset(long nowNanos) throws Http2Exception {
        if (resetsInWindow == 0 || nowNanos - resetWindowStart > resetWindowNanos) {
            resetWindowStart = nowNanos;
            resetsInWindow = 0;
        }
        if (++resetsInWindow > maxResets) {
            throw Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than " + maxResets
                    + " streams reset by or because of the peer within " + resetWindowNanos / 1_000_000_000L + " s");
        }
    }

    private void earn(long amount) {
        budget = Math.min(MAX_BUDGET, budget + amount);
    }
}
