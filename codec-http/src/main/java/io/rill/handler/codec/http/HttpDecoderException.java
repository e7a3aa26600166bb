package io.rill.handler.codec.http;

import io.rill.handler.codec.DecoderException;

/**
 * Why the HTTP decoder rejected a message, with the status a server answers it with (400 unless
 * a more specific one fits: 414 for a long request line, 431 for a large header section, 501 for
 * an unknown transfer coding, 505 for an HTTP version other than 1.x). The message quotes the
 * offending input, control characters escaped.
 */
public class HttpDecoderException extends DecoderException {

    /** The status a server answers the rejected message with. */
    private final HttpResponseStatus status;

    /**
     * Creates the exception.
     *
     * @param status  the status to answer with, e.g. {@link HttpResponseStatus#BAD_REQUEST}
     * @param message why the message was rejected, quoting the offending input
     */
    public HttpDecoderException(HttpResponseStatus status, String message) {
        super(message);
        this.status = status;
    }

    /**
     * The status a server should answer this with.
     *
     * @return the status to answer with
     */
    public HttpResponseStatus status() {
        return status;
    }
}
