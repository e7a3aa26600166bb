package io.rill.handler.codec.http2;

/**
 * An HTTP/2 protocol error: either a connection error (RFC 9113 §5.4.1), which ends the
 * connection with {@code GOAWAY}, or a stream error (§5.4.2), which resets one stream with
 * {@code RST_STREAM}. The message says what was wrong, quoting the offending value.
 */
public class Http2Exception extends Exception {

    private static final long serialVersionUID = 1L;

    /** The code sent in the GOAWAY or RST_STREAM frame. */
    private final Http2Error error;
    /** 0 for a connection error, else the stream to reset. */
    private final int streamId;

    /**
     * @param error the code to send
     * @param streamId 0 for a connection error, else the stream the error is confined to
     * @param message what was wrong
     */
    protected Http2Exception(Http2Error error, int streamId, String message) {
        super(message, null, false, false);
        this.error = error;
        this.streamId = streamId;
    }

    /**
     * A connection error: the connection is closed with GOAWAY carrying {@code error}.
     *
     * @param error the code to send
     * @param message what was wrong
     * @return the exception, for the caller to throw
     */
    public static Http2Exception connectionError(Http2Error error, String message) {
        return new Http2Exception(error, 0, message);
    }

    /**
     * A stream error: only stream {@code streamId} is reset, with RST_STREAM carrying {@code error}.
     *
     * @param streamId the stream to reset, not 0
     * @param error the code to send
     * @param message what was wrong
     * @return the exception, for the caller to throw
     */
    public static Http2Exception streamError(int streamId, Http2Error error, String message) {
        if (streamId == 0) {
            throw new IllegalArgumentException("a stream error needs a stream, not 0");
        }
        return new Http2Exception(error, streamId, message);
    }

    /**
     * The code sent to the peer.
     *
     * @return the error code
     */
    public Http2Error error() {
        return error;
    }

    /**
     * The stream a stream error is confined to.
     *
     * @return the stream id, or 0 for a connection error
     */
    public int streamId() {
        return streamId;
    }

    /**
     * Whether only one stream is affected.
     *
     * @return {@code true} for a stream error, {@code false} for a connection error
     */
    public boolean isStreamError() {
        return streamId != 0;
    }
}
