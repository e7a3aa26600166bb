package io.rill.handler.codec.http;

import io.rill.handler.codec.DecoderException;

/**
 * Why the HTTP decoder rejected a message, with the status a server answers it with (400 unless
 * a more specific one fits: 414 for a long request line, 431 for a large header section, 501 for
 * an unknown transfer coding, 505 for an HTTP version other than 1.x). The message quotes the
 * offending input, control characters escaped.
 */
public class HttpDecoderException extends DecoderException {

    private final HttpResponseStatus status;

    public HttpDecoderException(HttpResponseStatus status, String message) {
        super(message);
        this.status = status;
    }

    /** The status a server should answer this with. */
    public HttpResponseStatus status() {
        return status;
    }
}
