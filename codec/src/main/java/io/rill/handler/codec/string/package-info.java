/**
 * Text: {@link io.rill.handler.codec.string.StringDecoder} turns each received buffer (a frame,
 * when a frame decoder comes before it) into a {@code String} of a given charset,
 * {@link io.rill.handler.codec.string.StringEncoder} does the reverse, and
 * {@link io.rill.handler.codec.string.LineEncoder} appends a
 * {@link io.rill.handler.codec.string.LineSeparator} to each line it writes. Put a
 * {@code LineBasedFrameDecoder} before the string decoder for a line protocol.
 */
package io.rill.handler.codec.string;
