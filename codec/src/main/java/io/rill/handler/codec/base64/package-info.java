/**
 * Base64 (RFC 4648) on buffers: {@link io.rill.handler.codec.base64.Base64} encodes and decodes,
 * in the standard or the URL-safe alphabet, and {@link io.rill.handler.codec.base64.Base64Encoder}
 * and {@link io.rill.handler.codec.base64.Base64Decoder} do it to every message of a pipeline.
 * Decoding skips whitespace and accepts a missing final padding; any other byte outside the
 * alphabet is a {@code DecoderException} that names it and its offset.
 */
package io.rill.handler.codec.base64;
