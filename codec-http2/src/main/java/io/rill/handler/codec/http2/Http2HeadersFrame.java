package io.rill.handler.codec.http2;

/**
 * A stream's field section: a request or response head, a 1xx informational head, or trailers
 * (RFC 9113 §8.1). Sent as HEADERS and, if needed, CONTINUATION frames.
 *
 * @param streamId the stream; 0 on a client's first HEADERS of a new stream (the codec numbers it)
 * @param headers the fields
 * @param endStream whether this frame ends the sender's side of the stream
 */
public record Http2HeadersFrame(int streamId, Http2Headers headers, boolean endStream) implements Http2StreamFrame {
}
