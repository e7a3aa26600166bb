package io.rill.handler.codec.http.websocketx;

/**
 * What a {@link WebSocketFrameDecoder} accepts.
 *
 * <p><b>Compressed messages.</b> The limits are on what the application receives. A message whose
 * first frame carries RSV1 (compressed by a negotiated extension such as permessage-deflate) is
 * measured after inflation, by the extension: permessage-deflate refuses a message that inflates
 * past {@code maxMessagePayload} with 1009. On the wire such a message may be a little longer than
 * what it inflates to (DEFLATE adds a few bytes to data it cannot compress), so each of its frames
 * is held to {@link #maxCompressedFramePayload()} rather than {@code maxFramePayload}: still a
 * bound fixed before a byte of the frame is buffered.
 *
 * @param maxFramePayload the largest frame payload in bytes; a larger frame is refused with close
 *        1009 as soon as its length is read, before any of it is buffered
 * @param maxMessagePayload the largest sum of the payloads of one message's frames (for a compressed
 *        message, of its inflated frames); refused with 1009 at the header of the frame that would
 *        exceed it (compressed: as soon as inflation passes it)
 * @param expectMaskedFrames true on a server (clients must mask, RFC 6455 §5.1), false on a client
 *        (servers must not)
 * @param allowedRsv the RSV bits negotiated extensions claim ({@link WebSocketFrame#RSV1} ...);
 *        a data frame with any other RSV bit, and a control frame with any, is a protocol error
 */
public record WebSocketDecoderConfig(int maxFramePayload, int maxMessagePayload, boolean expectMaskedFrames,
        int allowedRsv) {

    /** The default frame and message limit: 64 KiB. */
    public static final int DEFAULT_MAX_PAYLOAD = 64 * 1024;

    /**
     * Checks the values.
     *
     * @param maxFramePayload the largest frame payload in bytes
     * @param maxMessagePayload the largest message payload in bytes
     * @param expectMaskedFrames true on a server, false on a client
     * @param allowedRsv the RSV bits negotiated extensions claim
     * @throws IllegalArgumentException if a limit is not positive, or {@code allowedRsv} has bits
     *         outside the low three
     */
    public WebSocketDecoderConfig {
        if (maxFramePayload <= 0 || maxMessagePayload <= 0) {
            throw new IllegalArgumentException("limits must be positive: frame " + maxFramePayload
                    + ", message " + maxMessagePayload);
        }
        if ((allowedRsv & ~7) != 0) {
            throw new IllegalArgumentException("allowedRsv: " + allowedRsv + " (expected 0..7)");
        }
    }

    /**
     * The largest wire payload of one frame of a compressed message (RSV1): {@code maxFramePayload}
     * plus the most a DEFLATE encoder adds to that many bytes, so a frame that carries up to
     * {@code maxFramePayload} bytes of any data, compressible or not, fits however it was compressed.
     *
     * @return the frame limit for compressed frames, at least {@code maxFramePayload}
     */
    public int maxCompressedFramePayload() {
        return deflatedBound(maxFramePayload);
    }

    /**
     * The most bytes {@code n} bytes may take once DEFLATE-compressed and flushed, for any encoder that
     * picks its cheapest block type per block, as zlib does: fixed-Huffman blocks of 9-bit literals
     * cost a little over n/8 (RFC 1951 §3.2.6), stored blocks of the smallest size zlib makes about
     * n/25, the sync flush that ends a frame five bytes (RFC 7692 §7.2.1). Rounded up to
     * n + n/8 + n/64 + 64 and capped at {@code Integer.MAX_VALUE}.
     */
    static int deflatedBound(int n) {
        long bound = n + (long) (n >> 3) + (n >> 6) + 64;
        return (int) Math.min(bound, Integer.MAX_VALUE);
    }

    /** @return the server's defaults: masked frames, 64 KiB frames and messages, no RSV bits */
    public static WebSocketDecoderConfig server() {
        return new WebSocketDecoderConfig(DEFAULT_MAX_PAYLOAD, DEFAULT_MAX_PAYLOAD, true, 0);
    }

    /** @return the client's defaults: unmasked frames, 64 KiB frames and messages, no RSV bits */
    public static WebSocketDecoderConfig client() {
        return new WebSocketDecoderConfig(DEFAULT_MAX_PAYLOAD, DEFAULT_MAX_PAYLOAD, false, 0);
    }

    /**
     * @param frame the new frame limit
     * @param message the new message limit
     * @return a copy with other limits
     */
    public WebSocketDecoderConfig withLimits(int frame, int message) {
        return new WebSocketDecoderConfig(frame, message, expectMaskedFrames, allowedRsv);
    }

    /**
     * @param rsv the RSV bits negotiated extensions claim
     * @return a copy allowing these RSV bits on data frames
     */
    public WebSocketDecoderConfig withAllowedRsv(int rsv) {
        return new WebSocketDecoderConfig(maxFramePayload, maxMessagePayload, expectMaskedFrames, rsv);
    }
}
