package io.rill.handler.codec.http2;

/**
 * GOAWAY (RFC 9113 §6.8), passed up when the peer sends one: streams above
 * {@code lastStreamId} were not processed and may be retried elsewhere.
 *
 * @param lastStreamId the highest stream the peer processed or may still process
 * @param error why the connection ends ({@link Http2Error#NO_ERROR} for a graceful shutdown)
 * @param debug the debug data as text, for logs
 */
public record Http2GoAwayFrame(int lastStreamId, Http2Error error, String debug) {
}
