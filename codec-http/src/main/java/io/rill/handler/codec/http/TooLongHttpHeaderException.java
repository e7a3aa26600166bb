package io.rill.handler.codec.http;

/** The header (or trailer) section exceeded its size limit; a server answers 431. */
public class TooLongHttpHeaderException extends HttpDecoderException {

    /**
     * Creates the exception with its message.
     *
     * @param message what happened, naming the limit or the input at fault
     */
    public TooLongHttpHeaderException(String message) {
        super(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, message);
    }
}
