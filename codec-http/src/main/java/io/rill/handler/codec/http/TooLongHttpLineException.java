package io.rill.handler.codec.http;

/** The request or status line, or a chunk-size line, exceeded its length limit. */
public class TooLongHttpLineException extends HttpDecoderException {

    public TooLongHttpLineException(HttpResponseStatus status, String message) {
        super(status, message);
    }
}
