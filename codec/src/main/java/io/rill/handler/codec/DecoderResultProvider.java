package io.rill.handler.codec;

/**
 * A decoded message that says whether decoding it succeeded. Decoders that prefer to pass a
 * broken message on (so the application can answer it, e.g. with HTTP 400) instead of throwing
 * mark it with a failed {@link DecoderResult}.
 */
public interface DecoderResultProvider {

    /**
     * How decoding this message went.
     *
     * @return the result; {@link DecoderResult#SUCCESS} for a message that was built, not decoded
     */
    DecoderResult decoderResult();

    /**
     * Replaces the result, e.g. to mark the message failed after a later check.
     *
     * @param result the new result; not null
     */
    void setDecoderResult(DecoderResult result);
}
