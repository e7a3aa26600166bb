package io.rill.handler.codec.http.websocketx;

/**
 * What a {@link WebSocketFrameDecoder} accepts.
 *
 * @param maxFramePayload the largest frame payload in bytes; a larger frame is refused with close
 *        1009 as soon as its length is read, before any of it is buffered
 * @param maxMessagePayload the largest sum of the payloads of one message's frames; refused with
 *        1009 at the header of the frame that would exceed it
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
