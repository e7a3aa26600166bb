package io.rill.example;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.pool.AbstractChannelPoolMap;
import io.rill.channel.pool.ChannelPoolHandler;
import io.rill.channel.pool.SimpleChannelPool;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpContentDecompressor;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.ssl.SslContext;
import io.rill.resolver.AddressResolverGroup;
import io.rill.resolver.JdkAddressResolverGroup;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * {@code http-client URL URL ...}: GETs the URLs one after another over keep-alive connections,
 * one {@link SimpleChannelPool} per origin (scheme, host, port), so URLs of the same origin reuse
 * one connection. Before each response it prints the connection that served it, e.g.
 * {@code == GET http://h/a via /127.0.0.1:51234 (reused)}. A connection the server closed (it
 * answered {@code Connection: close}) fails the pool's health check and a new one is made.
 */
final class PooledFetches {

    private PooledFetches() {
    }

    /**
     * Fetches every URI in order; throws on the first failure. {@code tls} is null when none is
     * https; {@code dnsServer}, when not null, is the only server asked for the hosts' addresses.
     */
    static void fetchAll(ExampleOptions options, List<URI> uris, int timeoutSeconds, SslContext tls,
            InetSocketAddress dnsServer) throws Exception {
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, "http-client");
        AddressResolverGroup<InetSocketAddress> resolver = HttpClientExample.resolvers(options, dnsServer);
        Bootstrap bootstrap = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                .resolver(resolver);
        AbstractChannelPoolMap<URI, SimpleChannelPool> pools = new AbstractChannelPoolMap<>() {
            @Override
            protected SimpleChannelPool newPool(URI origin) {
                return SimpleChannelPool.builder(bootstrap.clone().remoteAddress(origin.getHost(), origin.getPort()),
                        group.next(), new Setup(origin, tls)).build();
            }
        };
        Set<Channel> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        try {
            for (URI uri : uris) {
                URI origin = origin(uri);
                SimpleChannelPool pool = pools.get(origin);
                Channel ch = await(pool.acquire(), timeoutSeconds, "a connection to " + origin);
                boolean reused = !seen.add(ch);
                String peer = origin.getHost() + ":" + origin.getPort();
                if (tls != null && "https".equals(origin.getScheme()) && !reused) {
                    ClientTls.awaitHandshake(ch, peer, timeoutSeconds);
                }
                Promise<FullHttpResponse> response = ch.eventLoop().newPromise();
                ch.pipeline().get(Receiver.class).expect(response);
                ch.writeAndFlush(request(uri, origin));
                FullHttpResponse r = await(response, timeoutSeconds, "the response from " + peer);
                try {
                    System.out.println("== GET " + uri + " via " + ch.localAddress() + (reused ? " (reused)" : " (new)"));
                    System.out.println(HttpClientExample.render(r));
                    System.out.flush();
                } finally {
                    r.release();
                }
                pool.release(ch);
            }
        } finally {
            pools.close();
            if (resolver != JdkAddressResolverGroup.INSTANCE) {
                resolver.close();
            }
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    /** The pool key: scheme, host and port, with the scheme's default port filled in. */
    private static URI origin(URI uri) throws java.net.URISyntaxException {
        String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : 80;
        return new URI(scheme, null, uri.getHost(), port, null, null, null);
    }

    private static FullHttpRequest request(URI uri, URI origin) {
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target);
        // HTTP/1.1 keeps the connection by default: no Connection header, so the pool can reuse it.
        request.headers().set(HttpHeaderNames.HOST, uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + origin.getPort())
                .set(HttpHeaderNames.ACCEPT_ENCODING, HttpContentDecompressor.acceptEncoding())
                .set(HttpHeaderNames.USER_AGENT, "rill-http-client");
        return request;
    }

    private static <T> T await(Future<T> future, int timeoutSeconds, String what) throws InterruptedException {
        if (!future.await(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no " + what + " within " + timeoutSeconds + " s");
        }
        if (!future.isSuccess()) {
            throw new IllegalStateException("the fetch failed: " + future.cause().getMessage(), future.cause());
        }
        return future.getNow();
    }

    /** Builds each pooled connection's pipeline: TLS for https, then the HTTP/1.1 client stack. */
    private static final class Setup implements ChannelPoolHandler {
        private final URI origin;
        private final SslContext tls;

        Setup(URI origin, SslContext tls) {
            this.origin = origin;
            this.tls = tls;
        }

        @Override
        public void channelCreated(Channel c) {
            if ("https".equals(origin.getScheme())) {
                c.pipeline().addLast(tls.newHandler(c.alloc(), origin.getHost(), origin.getPort()));
                TlsFailureLog.quietBehindTls(c);
            }
            c.pipeline().addLast(new HttpClientCodec(),
                    HttpContentDecompressor.builder().maxDecodedBytes(HttpClientExample.MAX_BODY).maxRatio(0).build(),
                    new HttpObjectAggregator(HttpClientExample.MAX_BODY), new Receiver());
        }
    }

    /** Hands each whole response to the promise of the request in flight on its connection. */
    private static final class Receiver implements ChannelHandler {
        /** The request in flight; one at a time per connection, set before the request is written. */
        private volatile Promise<FullHttpResponse> current;

        void expect(Promise<FullHttpResponse> promise) {
            current = promise;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpResponse response = (FullHttpResponse) msg;
            Promise<FullHttpResponse> p = current;
            current = null;
            if (p == null || response.decoderResult().isFailure()) {
                response.release();
                if (p != null) {
                    p.tryFailure(response.decoderResult().cause());
                }
            } else if (!p.trySuccess(response)) {
                response.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Promise<FullHttpResponse> p = current;
            if (p != null) {
                p.tryFailure(new IllegalStateException("the server closed the connection before a whole response"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Promise<FullHttpResponse> p = current;
            if (p != null) {
                p.tryFailure(cause);
            }
            ctx.close();
        }
    }
}
