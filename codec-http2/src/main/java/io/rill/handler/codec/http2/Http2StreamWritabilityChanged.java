package io.rill.handler.codec.http2;

/**
 * A user event {@link Http2FrameCodec} fires when the content queued on a stream (waiting for the
 * peer's flow-control windows) crosses its water marks: above 64 KiB the stream is not writable,
 * and writable again below 32 KiB. Every stream of a connection is also not writable while the
 * connection holds more than its budget ({@link Http2FrameCodec.Builder#maxHeldBytes}), until it is
 * back under half of it. A producer that checks it sends no faster than the peer reads.
 *
 * @param streamId the stream
 * @param writable whether the stream is writable now
 */
public record Http2StreamWritabilityChanged(int streamId, boolean writable) {

    /** Bytes queued on a stream above which it is not writable. */
    public static final int HIGH_WATER_MARK = 64 * 1024;
    /** Bytes queued on a stream below which it is writable again. */
    public static final int LOW_WATER_MARK = 32 * 1024;
}
