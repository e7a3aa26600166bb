package io.rill.handler.codec.http2;

import java.util.function.Supplier;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.handler.ssl.ApplicationProtocolNames;
import io.rill.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.util.InternalLogger;

/**
 * HTTP/2 and HTTP/1.1 on one TLS port (or one TLS client connection), chosen by ALPN (RFC 7301,
 * RFC 9113 §3.2): after the handshake, {@code h2} gets the {@link Http2FrameCodec} and the HTTP/2
 * handler the suppliers make, {@code http/1.1} (or no protocol negotiated) gets the HTTP/1.1
 * handler. A peer that negotiated something else is closed.
 *
 * <p>{@link #addServerHandlers} and {@link #addClientHandlers} build the whole pipeline; the
 * {@link SslContext} must offer both protocols, which {@link #offerH2AndHttp11} arranges on its
 * builder. All methods run on the channel's event loop; one instance per connection.
 *
 * <pre>{@code
 * SslContext tls = HttpAlpnNegotiationHandler.offerH2AndHttp11(SslContextBuilder.forServer(key, cert)).build();
 * // in the ChannelInitializer of each accepted connection:
 * HttpAlpnNegotiationHandler.addServerHandlers(ch, tls, () -> Http2FrameCodec.forServer().build(),
 *         () -> new Http2MultiplexHandler(streamInitializer), () -> http1Initializer);
 * }</pre>
 */
public final class HttpAlpnNegotiationHandler extends ApplicationProtocolNegotiationHandler {

    private static final InternalLogger LOG = InternalLogger.get(HttpAlpnNegotiationHandler.class);

    private final Supplier<Http2FrameCodec> codecFactory;
    private final Supplier<? extends ChannelHandler> http2Handler;
    private final Supplier<? extends ChannelHandler> http1Handler;

    /**
     * A handler to put after the {@code SslHandler}.
     *
     * @param codecFactory makes the HTTP/2 codec (server or client, as the connection is)
     * @param http2Handler makes the handler after the codec, e.g. an {@link Http2MultiplexHandler}
     * @param http1Handler makes the handler that sets up HTTP/1.1 (a {@code ChannelInitializer})
     */
    public HttpAlpnNegotiationHandler(Supplier<Http2FrameCodec> codecFactory,
                                      Supplier<? extends ChannelHandler> http2Handler,
                                      Supplier<? extends ChannelHandler> http1Handler) {
        super(ApplicationProtocolNames.HTTP_1_1);
        this.codecFactory = codecFactory;
        this.http2Handler = http2Handler;
        this.http1Handler = http1Handler;
    }

    /**
     * Offers {@code h2} first and {@code http/1.1} second: a server picks the first the client also
     * speaks, a client offers both.
     *
     * @param builder a server or client builder
     * @return {@code builder}
     */
    public static SslContextBuilder offerH2AndHttp11(SslContextBuilder builder) {
        return builder.applicationProtocols(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1);
    }

    /**
     * Adds TLS and this handler to an accepted connection's pipeline.
     *
     * @param ch the accepted connection
     * @param tls a server context that offers {@code h2} (see {@link #offerH2AndHttp11})
     * @param codecFactory makes the server HTTP/2 codec
     * @param http2Handler makes the handler after the codec
     * @param http1Handler makes the handler that sets up HTTP/1.1
     * @throws IllegalArgumentException if {@code tls} is not a server context offering {@code h2}
     */
    public static void addServerHandlers(Channel ch, SslContext tls, Supplier<Http2FrameCodec> codecFactory,
                                         Supplier<? extends ChannelHandler> http2Handler,
                                         Supplier<? extends ChannelHandler> http1Handler) {
        checkOffersH2(tls, true);
        ch.pipeline().addLast(tls.newHandler(ch.alloc()),
                new HttpAlpnNegotiationHandler(codecFactory, http2Handler, http1Handler));
    }

    /**
     * Adds TLS and this handler to a client connection's pipeline.
     *
     * @param ch the connection
     * @param tls a client context that offers {@code h2} (see {@link #offerH2AndHttp11})
     * @param peerHost the server's host name (SNI and host name verification)
     * @param peerPort the server's port
     * @param codecFactory makes the client HTTP/2 codec
     * @param http2Handler makes the handler after the codec
     * @param http1Handler makes the handler that sets up HTTP/1.1
     * @throws IllegalArgumentException if {@code tls} is not a client context offering {@code h2}
     */
    public static void addClientHandlers(Channel ch, SslContext tls, String peerHost, int peerPort,
                                         Supplier<Http2FrameCodec> codecFactory,
                                         Supplier<? extends ChannelHandler> http2Handler,
                                         Supplier<? extends ChannelHandler> http1Handler) {
        checkOffersH2(tls, false);
        ch.pipeline().addLast(tls.newHandler(ch.alloc(), peerHost, peerPort),
                new HttpAlpnNegotiationHandler(codecFactory, http2Handler, http1Handler));
    }

    private static void checkOffersH2(SslContext tls, boolean server) {
        if (tls.isServer() != server) {
            throw new IllegalArgumentException("a " + (server ? "server" : "client") + " SslContext is needed, not " + tls);
        }
        if (!tls.applicationProtocols().contains(ApplicationProtocolNames.HTTP_2)) {
            throw new IllegalArgumentException("the SslContext does not offer h2 by ALPN (it offers "
                    + tls.applicationProtocols() + "); build it with offerH2AndHttp11(builder)");
        }
    }

    @Override
    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
        ChannelPipeline pipeline = ctx.pipeline();
        if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
            Http2FrameCodec codec = codecFactory.get();
            pipeline.addAfter(ctx.name(), null, codec);
            pipeline.addAfter(pipeline.context(codec).name(), null, http2Handler.get());
        } else if (ApplicationProtocolNames.HTTP_1_1.equals(protocol)) {
            pipeline.addAfter(ctx.name(), null, http1Handler.get());
        } else {
            LOG.debug("{}: ALPN chose {}, which is neither h2 nor http/1.1: closing", ctx.channel(), protocol);
            ctx.close();
        }
    }
}
