/**
 * HTTP/2 (RFC 9113) with HPACK (RFC 7541), server and client.
 *
 * <h2>Where to start</h2>
 * Three classes make a server:
 * <ul>
 *   <li>{@link io.rill.handler.codec.http2.Http2FrameCodec}, from {@code Http2FrameCodec.forServer().build()}
 *       ({@code forClient()} for a client): the connection. Bytes below it, frames above it; it
 *       keeps the streams' states and flow control, answers PING and SETTINGS, and enforces the
 *       limits it advertises.</li>
 *   <li>{@link io.rill.handler.codec.http2.Http2MultiplexHandler}, right after the codec: one child
 *       channel ({@link io.rill.handler.codec.http2.Http2StreamChannel}) per stream, whose pipeline
 *       gets the handler you give it (sharable, typically a {@code ChannelInitializer}).</li>
 *   <li>Your stream handler, which reads {@link io.rill.handler.codec.http2.Http2HeadersFrame}s
 *       and {@link io.rill.handler.codec.http2.Http2DataFrame}s and writes them back. Frames are
 *       records that carry their stream id; in a child channel, write 0 (or the stream's id) and
 *       the channel puts its own in.</li>
 * </ul>
 *
 * <pre>{@code
 * ch.pipeline().addLast(Http2FrameCodec.forServer().build(), new Http2MultiplexHandler(new ChannelInitializer<>() {
 *     protected void initChannel(Channel stream) {
 *         stream.pipeline().addLast(new MyStreamHandler());
 *     }
 * }));
 * }</pre>
 *
 * <p>A client opens each stream with {@link io.rill.handler.codec.http2.Http2StreamChannelBootstrap}
 * on a connection whose pipeline holds a client codec and a multiplex handler. Existing HTTP/1
 * handlers run unchanged on a stream behind an
 * {@link io.rill.handler.codec.http2.Http2StreamFrameToHttpObjectCodec}.
 *
 * <h2>Choosing HTTP/2</h2>
 * {@link io.rill.handler.codec.http2.HttpAlpnNegotiationHandler} picks {@code h2} or
 * {@code http/1.1} by ALPN over TLS ({@code offerH2AndHttp11} prepares the {@code SslContextBuilder});
 * on cleartext ports, {@link io.rill.handler.codec.http2.CleartextHttpProtocolDetector} tells the
 * HTTP/2 preface (prior knowledge) from an HTTP/1.1 request, and
 * {@link io.rill.handler.codec.http2.Http2ServerUpgradeHandler} (after {@code HttpServerCodec})
 * takes {@code Upgrade: h2c}; {@link io.rill.handler.codec.http2.Http2ClientUpgradeHandler} is its
 * client side.
 *
 * <h2>Flow control and limits</h2>
 * Received content holds the peer's windows until it is consumed: a stream channel returns the
 * credit itself once its pipeline has read a data frame; a handler straight above the codec
 * writes an {@link io.rill.handler.codec.http2.Http2WindowUpdateFrame}. A slow reader thus slows
 * the sender instead of filling memory. Content sent waits for the peer's windows in the codec;
 * {@link io.rill.handler.codec.http2.Http2StreamWritabilityChanged} and the stream channel's
 * writability say when to stop producing. The codec's builder sets the limits it advertises and
 * enforces (concurrent streams, windows, header list size); floods of frames that ask for nothing,
 * reset floods and stalled windows end the connection with
 * {@link io.rill.handler.codec.http2.Http2GoAwayFrame GOAWAY}. Errors are
 * {@link io.rill.handler.codec.http2.Http2Exception}s with an {@link io.rill.handler.codec.http2.Http2Error}
 * code, of the stream (RST_STREAM) or of the connection (GOAWAY).
 */
package io.rill.handler.codec.http2;
