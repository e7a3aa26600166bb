package io.rill.handler.codec.http.multipart;

import io.rill.handler.codec.DecoderException;
import io.rill.handler.codec.http.HttpResponseStatus;

/**
 * A POST body that cannot be decoded: malformed ({@code 400}), or over a limit ({@code 413}).
 * {@link #status()} is the answer a server should give.
 */
public class HttpPostRequestDecoderException extends DecoderException {

    private static final long serialVersionUID = 1L;

    /** Why decoding stopped. */
    public enum Kind {
        /** The body breaks its grammar. */
        MALFORMED,
        /** More fields than allowed. */
        TOO_MANY_FIELDS,
        /** A field, a part's headers or a file is over its limit. */
        TOO_LARGE
    }

    /** Why decoding stopped. */
    private final Kind kind;

    /**
     * Creates the exception.
     *
     * @param kind    why decoding stopped
     * @param message what was wrong, naming the field or the limit
     */
    public HttpPostRequestDecoderException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    /**
     * Why decoding stopped: malformed input or a limit.
     *
     * @return the kind of failure
     */
    public Kind kind() {
        return kind;
    }

    /**
     * 400 for malformed input, 413 for a limit.
     *
     * @return {@link HttpResponseStatus#BAD_REQUEST} or {@link HttpResponseStatus#CONTENT_TOO_LARGE}
     */
    public HttpResponseStatus status() {
        return kind == Kind.MALFORMED ? HttpResponseStatus.BAD_REQUEST : HttpResponseStatus.CONTENT_TOO_LARGE;
    }
}
