/**
 * TLS for any channel, over the JDK's {@code SSLEngine} or BoringSSL.
 *
 * <h2>Where to start</h2>
 * Build one {@link io.rill.handler.ssl.SslContext} with {@link io.rill.handler.ssl.SslContextBuilder}
 * ({@code forServer(certificateChainPem, keyPem)} or {@code forClient()}), share it, and put a
 * fresh {@link io.rill.handler.ssl.SslHandler} from {@code newHandler(...)} first in each
 * connection's pipeline:
 *
 * <pre>{@code
 * SslContext server = SslContextBuilder.forServer(chainPem, keyPem).build();
 * ch.pipeline().addLast(server.newHandler(ch.alloc()), new HttpServerCodec(), app);
 *
 * SslContext client = SslContextBuilder.forClient().build();       // the JDK's CA roots
 * ch.pipeline().addLast(client.newHandler(ch.alloc(), "example.com", 443), ...);
 * }</pre>
 *
 * <h2>Defaults</h2>
 * TLS 1.3 and 1.2 only, the provider's default cipher suites for them, and for clients host name
 * verification: a client handler must be made with the peer's host name, which is also sent as
 * SNI. {@link io.rill.handler.ssl.SslProvider#OPENSSL} (BoringSSL through the optional
 * {@code io.netty:netty-tcnative-boringssl-static} jar) is used when present, the JDK otherwise;
 * {@code SslProvider.OPENSSL.unavailabilityCause()} says why it is not. Trust decisions are always
 * the JDK's trust manager's. An OPENSSL context holds native memory: {@code SslContext.close()}
 * frees it.
 *
 * <h2>The rest of the package</h2>
 * {@link io.rill.handler.ssl.SniHandler} picks a server context by the name the client asks for
 * ({@link io.rill.handler.ssl.SslContextMapping} maps names, wildcards included, to contexts).
 * {@link io.rill.handler.ssl.ApplicationProtocolNegotiationHandler} sets up the pipeline for the
 * protocol ALPN chose ({@link io.rill.handler.ssl.ApplicationProtocolNames}; offer them with
 * {@code SslContextBuilder.applicationProtocols}). The handshake and the closure are reported as
 * futures of the handler and as events ({@link io.rill.handler.ssl.SslHandshakeCompletionEvent},
 * {@link io.rill.handler.ssl.SslCloseCompletionEvent}, {@link io.rill.handler.ssl.SniCompletionEvent}).
 * Every wait is bounded: the handshake (10 s), the ClientHello an {@code SniHandler} reads, the
 * flush of close_notify, and the plaintext held before the handshake completes. Input that is not
 * TLS is a {@link io.rill.handler.ssl.NotSslRecordException} and the close.
 * {@code io.rill.handler.ssl.util} holds helpers for tests.
 */
package io.rill.handler.ssl;
