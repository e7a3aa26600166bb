package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;

/**
 * Receives the frames {@link Http2FrameReader} parsed, already checked against the frame-level
 * rules of RFC 9113 §6 (sizes, stream 0 or not, padding, CONTINUATION assembly). Stream states
 * and flow control are the listener's. Any method may throw an {@link Http2Exception}.
 */
interface Http2FrameListener {

    /**
     * A DATA frame. {@code data} is the read buffer itself, its readable bytes narrowed to the
     * frame's content, and valid only during the call: keep a retained slice (or a copy), never
     * the buffer, and leave its writer index alone.
     *
     * @param flowControlled the frame's whole payload length, padding included, which counts
     *        against the flow-control windows (RFC 9113 §6.1)
     */
    void onData(int streamId, ByteBuf data, int flowControlled, boolean endStream) throws Http2Exception;

    /** A complete field block (HEADERS and its CONTINUATION frames), decoded. */
    void onHeaders(int streamId, Http2Headers headers, boolean endStream) throws Http2Exception;

    /** A PRIORITY frame (or HEADERS priority fields): parsed, checked and otherwise ignored. */
    void onPriority(int streamId) throws Http2Exception;

    void onRstStream(int streamId, Http2Error error) throws Http2Exception;

    void onSettings(Http2Settings settings) throws Http2Exception;

    void onSettingsAck() throws Http2Exception;

    void onPing(long data, boolean ack) throws Http2Exception;

    /** {@code debugData} is valid only during the call. */
    void onGoAway(int lastStreamId, Http2Error error, ByteBuf debugData) throws Http2Exception;

    void onWindowUpdate(int streamId, int increment) throws Http2Exception;

    /** A frame of a type this endpoint does not know, which RFC 9113 §4.1 says to ignore. */
    void onUnknownFrame(int type, int streamId, int length) throws Http2Exception;
}
