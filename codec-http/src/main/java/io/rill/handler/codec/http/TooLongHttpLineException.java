package io.rill.handler.codec.http;

/** The request or status line, or a chunk-size line, exceeded its length limit. */
public class TooLongHttpLineException extends HttpDecoderException {

    /**
     * Creates the exception.
     *
     * @param status  the status to answer with: 414 for a request line, 400 otherwise
     * @param message which line was too long, and its limit
     */
    public TooLongHttpLineException(HttpResponseStatus status, String message) {
        super(status, message);
    }
}
