/**
 * Writing large or slow bodies in pieces, at the pace the peer reads them.
 *
 * <p>Put a {@link io.rill.handler.stream.ChunkedWriteHandler} in the pipeline and write a
 * {@link io.rill.handler.stream.ChunkedInput}: a {@link io.rill.handler.stream.ChunkedFile}
 * ({@code RandomAccessFile}), a {@link io.rill.handler.stream.ChunkedNioFile} ({@code FileChannel})
 * or a {@link io.rill.handler.stream.ChunkedStream} ({@code InputStream}); HTTP wraps one in
 * {@code HttpChunkedInput}. The handler reads a chunk and writes it only while the channel is
 * writable, waits for {@code channelWritabilityChanged} when it is not, and so never holds more
 * than the outbound buffer's high water mark of the body, however large the file:
 *
 * <pre>{@code
 * ch.pipeline().addLast(new HttpServerCodec(), new ChunkedWriteHandler(), app);
 * // in the application, after writing the response head:
 * ctx.writeAndFlush(new HttpChunkedInput(new ChunkedFile(file)));
 * }</pre>
 *
 * <p>Writes queue in the handler and start at {@code flush}; other messages keep their order
 * among the chunked ones. An input is closed exactly once, when it is done, fails, or the
 * channel closes. For a file sent as it is, with no TLS or other transformation, a
 * {@code FileRegion} ({@code io.rill.channel.DefaultFileRegion}) avoids the copy into user space.
 */
package io.rill.handler.stream;
