package io.rill.handler.codec.http2;

/**
 * A field section larger than the SETTINGS_MAX_HEADER_LIST_SIZE this endpoint advertised
 * (RFC 9113 §6.5.2: the sum over fields of name length + value length + 32 octets).
 *
 * <p>It is a stream error: the HPACK decoder read the whole field block, so the compression
 * state is still in sync and the connection can go on. Being its own type lets a server answer
 * {@code 431 Request Header Fields Too Large} (RFC 9113 §10.5.1, RFC 6585 §5) instead of
 * resetting the stream. When a reset is sent instead, it carries PROTOCOL_ERROR: the limit is
 * advisory in HTTP/2, so the peer broke no framing or compression rule, but REFUSED_STREAM would
 * invite a retry that fails the same way and ENHANCE_YOUR_CALM speaks of load, not of one
 * message. {@link #size()} lets the connection treat a section far over the limit (an HPACK bomb)
 * as a connection error instead.
 */
public final class HeaderListTooLargeException extends Http2Exception {

    private static final long serialVersionUID = 1L;

    /** The limit that was exceeded, in RFC 9113 §6.5.2 octets. */
    private final long limit;
    /** The size the whole section would have had, in the same octets. */
    private final long size;

    HeaderListTooLargeException(int streamId, long limit, long size) {
        super(Http2Error.PROTOCOL_ERROR, streamId,
                "header list of " + size + " octets is over SETTINGS_MAX_HEADER_LIST_SIZE " + limit);
        this.limit = limit;
        this.size = size;
    }

    /**
     * The limit that was exceeded.
     *
     * @return the advertised SETTINGS_MAX_HEADER_LIST_SIZE, in octets
     */
    public long limit() {
        return limit;
    }

    /**
     * The size the decoded section would have had, counted without keeping its fields.
     *
     * @return the sum of name length + value length + 32 over every field of the block
     */
    public long size() {
        return size;
    }
}
