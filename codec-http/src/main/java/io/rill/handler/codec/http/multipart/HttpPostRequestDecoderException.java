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

    private final Kind kind;

    public HttpPostRequestDecoderException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** 400 for malformed input, 413 for a limit. */
    public HttpResponseStatus status() {
        return kind == Kind.MALFORMED ? HttpResponseStatus.BAD_REQUEST : HttpResponseStatus.CONTENT_TOO_LARGE;
    }
}
