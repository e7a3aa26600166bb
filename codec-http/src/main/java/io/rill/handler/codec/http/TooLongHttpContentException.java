package io.rill.handler.codec.http;

import io.rill.handler.codec.TooLongFrameException;

/** A message body exceeded the aggregator's {@code maxContentLength}. */
public class TooLongHttpContentException extends TooLongFrameException {

    /**
     * Creates the exception with its message.
     *
     * @param message what happened, naming the limit or the input at fault
     */
    public TooLongHttpContentException(String message) {
        super(message);
    }
}
