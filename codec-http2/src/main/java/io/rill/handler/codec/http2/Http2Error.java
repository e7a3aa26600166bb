package io.rill.handler.codec.http2;

/**
 * The error codes of RFC 9113 §7, carried by {@code RST_STREAM} and {@code GOAWAY}.
 */
public enum Http2Error {
    /** The graceful end of a stream or connection, not an error. */
    NO_ERROR(0x0),
    /** The peer broke the protocol and no more specific code applies. */
    PROTOCOL_ERROR(0x1),
    /** An error of the endpoint itself. */
    INTERNAL_ERROR(0x2),
    /** The peer broke flow control (a window overflowed or was overrun). */
    FLOW_CONTROL_ERROR(0x3),
    /** SETTINGS were not acknowledged in time. */
    SETTINGS_TIMEOUT(0x4),
    /** A frame arrived on a stream already half-closed for the peer. */
    STREAM_CLOSED(0x5),
    /** A frame had a size it must not have. */
    FRAME_SIZE_ERROR(0x6),
    /** The stream was refused before any application processing. */
    REFUSED_STREAM(0x7),
    /** The stream is no longer wanted. */
    CANCEL(0x8),
    /** The field-section compression state can no longer be kept (HPACK). */
    COMPRESSION_ERROR(0x9),
    /** The tunnel of a {@code CONNECT} request was reset or closed abnormally. */
    CONNECT_ERROR(0xa),
    /** The peer generates excessive load. */
    ENHANCE_YOUR_CALM(0xb),
    /** The transport does not meet minimum security requirements. */
    INADEQUATE_SECURITY(0xc),
    /** The request must be retried over HTTP/1.1. */
    HTTP_1_1_REQUIRED(0xd);

    private static final Http2Error[] BY_CODE = values();

    private final int code;

    Http2Error(int code) {
        this.code = code;
    }

    /**
     * The code as it is sent on the wire.
     *
     * @return the 32-bit error code
     */
    public int code() {
        return code;
    }

    /**
     * The error with the given wire code; an unknown code means {@link #INTERNAL_ERROR}, as RFC 9113
     * §7 allows ("unknown or unsupported error codes ... MAY be treated as equivalent to INTERNAL_ERROR").
     *
     * @param code the code read from the wire, as an unsigned 32-bit value
     * @return the matching error, or {@link #INTERNAL_ERROR}
     */
    public static Http2Error valueOf(long code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[(int) code] : INTERNAL_ERROR;
    }
}
