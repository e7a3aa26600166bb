package io.rill.handler.codec.http2;

/**
 * RST_STREAM: the stream ends abnormally at once (RFC 9113 §6.4). Received, it says the peer
 * reset the stream; written, it resets the stream.
 *
 * @param streamId the stream
 * @param error why
 */
public record Http2ResetFrame(int streamId, Http2Error error) implements Http2StreamFrame {
}
