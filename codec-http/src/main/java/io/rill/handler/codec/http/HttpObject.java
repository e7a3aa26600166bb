package io.rill.handler.codec.http;

import io.rill.handler.codec.DecoderResultProvider;

/**
 * What the HTTP codecs pass through the pipeline: a message head ({@link HttpMessage}), a piece of
 * body ({@link HttpContent}) or both at once ({@link FullHttpMessage}). Decoded objects carry a
 * {@link io.rill.handler.codec.DecoderResult}; a failed one says why the input was rejected.
 */
public interface HttpObject extends DecoderResultProvider {
}
