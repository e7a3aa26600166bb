package io.rill.handler.codec.http;

import io.rill.handler.codec.TooLongFrameException;

/** A message body exceeded the aggregator's {@code maxContentLength}. */
public class TooLongHttpContentException extends TooLongFrameException {

    public TooLongHttpContentException(String message) {
        super(message);
    }
}
