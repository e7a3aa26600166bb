/**
 * zlib, gzip and raw DEFLATE (RFC 1950, 1952, 1951) over the JDK's {@code Deflater} and
 * {@code Inflater}: {@link io.rill.handler.codec.compression.ZlibEncoder} and
 * {@link io.rill.handler.codec.compression.ZlibDecoder}, the format chosen by
 * {@link io.rill.handler.codec.compression.ZlibWrapper}.
 *
 * <p>Decompression is bounded: a cap on the bytes one stream inflates to and on the expansion
 * ratio, both on by default; past either, the decoder fails with a
 * {@link io.rill.handler.codec.compression.DecompressionLimitException} that names the limit.
 * It inflates only while the channel is writable, so a small input cannot fill memory with
 * output that waits for a slow peer. Corrupt input is a
 * {@link io.rill.handler.codec.compression.DecompressionException}.
 */
package io.rill.handler.codec.compression;
