/**
 * Connecting through a proxy: {@link io.rill.handler.proxy.Socks4ProxyHandler},
 * {@link io.rill.handler.proxy.Socks5ProxyHandler} and {@link io.rill.handler.proxy.HttpProxyHandler}.
 *
 * <p>A proxy handler goes first in a client pipeline (after an {@code SslHandler} only when the
 * connection to the proxy itself is TLS). The channel's {@code connect(destination)} then opens a
 * connection to the proxy instead, the handler runs the proxy's handshake asking for the destination,
 * and the connect future completes only when the tunnel is up; meanwhile the handlers after it see
 * no {@code channelActive} and their writes wait in the proxy handler (up to
 * {@link io.rill.handler.proxy.ProxyHandler#setMaxPendingWrites a bound}). On success the handler
 * fires {@code channelActive} and a {@link io.rill.handler.proxy.ProxyConnectionEvent}, sends the
 * writes that waited, and removes itself and its codecs, so TLS, HTTP/1.1 or HTTP/2 after it run
 * through the tunnel as if connected directly.
 *
 * <pre>
 *   Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
 *       .resolver(NoopAddressResolverGroup.INSTANCE) // the proxy resolves the name
 *       .handler(new ChannelInitializer&lt;&gt;() {
 *           protected void initChannel(Channel ch) {
 *               ch.pipeline().addLast(new Socks5ProxyHandler(new InetSocketAddress("127.0.0.1", 1080)),
 *                                     new HttpClientCodec(), new MyHandler());
 *           }
 *       });
 *   Channel ch = b.connect("example.com", 80).sync().getNow();
 * </pre>
 *
 * <p>With its default resolver, {@code Bootstrap.connect(host, port)} looks the name up locally
 * before the handler sees it, so the proxy gets an address. With
 * {@link io.rill.resolver.NoopAddressResolverGroup#INSTANCE}, or when a registered channel is
 * connected to an {@link java.net.InetSocketAddress#createUnresolved} address, the name goes to the
 * proxy unresolved (SOCKS4a, SOCKS5 domain names, the CONNECT target), which is what a proxy that
 * reaches names the client cannot resolve needs.
 *
 * <p>Failures fail the connect future with a {@link io.rill.handler.proxy.ProxyConnectException}
 * naming the protocol, the proxy's address and its answer: a refusal
 * ({@link io.rill.handler.proxy.ProxyRefusedException}), rejected credentials
 * ({@link io.rill.handler.proxy.ProxyAuthenticationException}), no answer within the handshake
 * timeout, 10 seconds by default ({@link io.rill.handler.proxy.ProxyHandshakeTimeoutException}),
 * the proxy closing the connection ({@link io.rill.handler.proxy.ProxyClosedException}); a malformed
 * answer or an unreachable proxy is a plain {@code ProxyConnectException} with the cause. The
 * channel is closed.
 */
package io.rill.handler.proxy;
