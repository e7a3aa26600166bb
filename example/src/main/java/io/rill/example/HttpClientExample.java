package io.rill.example;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
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
import io.rill.resolver.dns.DnsAddressResolverGroup;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Promise;

/**
 * Fetches {@code --url http://host[:port]/path} or {@code https://...} with a GET (zstd, br, gzip and deflate accepted
 * and decoded) and prints the status line, the header fields and the body. Bodies are capped at
 * 16 MiB decoded, however well they compressed. Over TLS the server's certificate is checked
 * against the JDK's trust store and its host name; {@code --trust PEM} trusts a self-signed
 * server's certificate instead, {@code --insecure} anything ({@link ClientTls}). The host is
 * resolved by the JDK's lookup, or with {@code --dns-server IP:PORT} by Rill's
 * {@code DnsNameResolver} asking that server only (no hosts file, no search list). With
 * {@code --proxy socks5://H:P} or {@code http://H:P} the connection goes through that proxy, which
 * resolves the host ({@link ClientProxy}). Further URLs after the options are fetched one after
 * another over pooled keep-alive connections, one pool per origin ({@link PooledFetches}; not
 * through a proxy). Exits 1 if a fetch fails or takes longer than {@code --timeout SECONDS}
 * (default 30).
 */
final class HttpClientExample implements Example {

    static final int MAX_BODY = 16 << 20;

    @Override
    public String name() {
        return "http-client";
    }

    @Override
    public String description() {
        return "fetches an http:// or https:// URL and prints status, headers and body (--url URL);"
                + " several URLs share pooled keep-alive connections";
    }

    private static final ExampleOption URL = ExampleOption.text("url", "URL", null,
            "what to fetch: http://host[:port]/path or https://... (required)");
    private static final ExampleOption TIMEOUT = ExampleOption.number("timeout", "SECONDS", 30, 1, 3600,
            "give up (exit 1) when the whole response has not come by then");
    private static final ExampleOption DNS_SERVER = ExampleOption.text("dns-server", "IP:PORT", null,
            "resolve the URL's host with Rill's DNS resolver, asking this server only (default: the JDK's lookup)");

    @Override
    public List<ExampleOption> options() {
        return List.of(URL, TIMEOUT, DNS_SERVER, ClientTls.TRUST, ClientTls.INSECURE, ClientProxy.PROXY);
    }

    @Override
    public String arguments() {
        return "[URL ...]";
    }

    @Override
    public List<String> limits() {
        return List.of("response body: 16 MiB, after decoding (zstd, br, gzip or deflate), at any compression ratio (the fetch fails beyond)");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        List<URI> uris = urls(options);
        int timeout = options.intValue(TIMEOUT);
        ClientProxy.handler(options); // a malformed --proxy is bad usage, said before connecting
        if (uris.size() > 1) {
            if (options.text(ClientProxy.PROXY) != null) {
                throw new ExampleOptions.UsageException("--proxy takes one URL");
            }
            boolean anyHttps = uris.stream().anyMatch(u -> "https".equalsIgnoreCase(u.getScheme()));
            PooledFetches.fetchAll(options, uris, timeout, anyHttps ? ClientTls.context(options) : null,
                    dnsServer(options.text(DNS_SERVER)));
            return;
        }
        URI uri = uris.get(0);
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        InetSocketAddress dnsServer = dnsServer(options.text(DNS_SERVER));
        FullHttpResponse response = fetch(options, uri, timeout, https ? ClientTls.context(options) : null, dnsServer);
        try {
            System.out.print(render(response));
            System.out.flush();
        } finally {
            response.release();
        }
    }

    /** {@code --dns-server}'s address, or null; only a literal IP, so that finding the DNS server needs no DNS. */
    static InetSocketAddress dnsServer(String value) {
        if (value == null) {
            return null;
        }
        int colon = value.lastIndexOf(':');
        String host = colon > 0 ? value.substring(0, colon) : "";
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        boolean literal = !host.isEmpty() && (host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || Character.isDigit(c)));
        try {
            int port = Integer.parseInt(value.substring(colon + 1));
            if (!literal || port < 1 || port > 65535) {
                throw new NumberFormatException();
            }
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (NumberFormatException | java.net.UnknownHostException | StringIndexOutOfBoundsException e) {
            throw new ExampleOptions.UsageException("--dns-server '" + value + "': want IP:PORT, such as 127.0.0.1:53 or [::1]:53");
        }
    }

    /** {@code --url} and the URL arguments, in order; several are fetched over pooled connections. */
    private static List<URI> urls(ExampleOptions options) {
        List<String> given = new java.util.ArrayList<>();
        if (options.text(URL) != null) {
            given.add(options.text(URL));
        }
        given.addAll(options.arguments());
        if (given.isEmpty()) {
            throw new ExampleOptions.UsageException("--url (or one or more URL arguments) is required");
        }
        List<URI> uris = new java.util.ArrayList<>();
        for (String url : given) {
            URI uri;
            try {
                uri = new URI(url);
            } catch (java.net.URISyntaxException e) {
                throw new ExampleOptions.UsageException("URL '" + url + "': " + e.getMessage());
            }
            if (!"https".equalsIgnoreCase(uri.getScheme()) && !"http".equalsIgnoreCase(uri.getScheme())
                    || uri.getHost() == null) {
                throw new ExampleOptions.UsageException("--url must be http://host[:port]/path or https://...: " + url);
            }
            uris.add(uri);
        }
        return uris;
    }

    /** The JDK's lookup, or with {@code dnsServer} Rill's DNS resolver asking that server only; close it unless the JDK's. */
    static AddressResolverGroup<InetSocketAddress> resolvers(ExampleOptions options, InetSocketAddress dnsServer) {
        return dnsServer == null ? JdkAddressResolverGroup.INSTANCE
                : new DnsAddressResolverGroup(b -> b.resolvConf(null).hostsFile(null).nameServers(List.of(dnsServer))
                        .searchDomains(List.of()).datagramChannelFactory(Transports.datagramChannel(options))
                        .socketChannelFactory(Transports.clientChannel(options)));
    }

    /** GETs {@code uri} as {@link #fetch(ExampleOptions, URI, int, SslContext, InetSocketAddress)} does, with the JDK's lookup. */
    static FullHttpResponse fetch(ExampleOptions options, URI uri, int timeoutSeconds, SslContext tls) throws Exception {
        return fetch(options, uri, timeoutSeconds, tls, null);
    }

    /**
     * GETs {@code uri}, over {@code tls} unless it is null, resolving its host through
     * {@code dnsServer} unless that is null; the caller releases the response. Throws if the
     * fetch failed, a body over the cap included.
     */
    static FullHttpResponse fetch(ExampleOptions options, URI uri, int timeoutSeconds, SslContext tls,
            InetSocketAddress dnsServer) throws Exception {
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, "http-client");
        AddressResolverGroup<InetSocketAddress> resolver = resolvers(options, dnsServer);
        try {
            Promise<FullHttpResponse> done = new DefaultPromise<>(group.next());
            int port = uri.getPort() >= 0 ? uri.getPort() : tls != null ? 443 : 80;
            boolean proxied = options.text(ClientProxy.PROXY) != null;
            Bootstrap bootstrap = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                    .resolver(resolver).handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel c) {
                            if (proxied) {
                                c.pipeline().addLast(ClientProxy.handler(options));
                            }
                            if (tls != null) {
                                c.pipeline().addLast(tls.newHandler(c.alloc(), uri.getHost(), port));
                                TlsFailureLog.quietBehindTls(c);
                            }
                            // The cap bounds the body; a page may compress better than 100:1 (padding,
                            // repeated markup), so the ratio limit is off.
                            c.pipeline().addLast(new HttpClientCodec(),
                                    HttpContentDecompressor.builder().maxDecodedBytes(MAX_BODY).maxRatio(0).build(),
                                    new HttpObjectAggregator(MAX_BODY), new Receiver(done));
                        }
                    });
            Channel ch = ClientProxy.connect(bootstrap, proxied, uri.getHost(), port);
            if (tls != null) {
                ClientTls.awaitHandshake(ch, uri.getHost() + ":" + port, timeoutSeconds);
            }
            String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            // A whole request: the encoder adds no Content-Length: 0 to a GET (RFC 9110 section 8.6).
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target);
            request.headers().set(HttpHeaderNames.HOST, uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + port)
                    .set(HttpHeaderNames.ACCEPT_ENCODING, HttpContentDecompressor.acceptEncoding())
                    .set(HttpHeaderNames.CONNECTION, "close")
                    .set(HttpHeaderNames.USER_AGENT, "rill-http-client");
            ch.writeAndFlush(request);
            if (!done.await(timeoutSeconds, TimeUnit.SECONDS)) {
                ch.close();
                throw new IllegalStateException("no response within " + timeoutSeconds + " s");
            }
            ch.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            if (done.cause() != null) {
                throw new IllegalStateException("the fetch failed: " + done.cause().getMessage(), done.cause());
            }
            return done.getNow();
        } finally {
            if (resolver != JdkAddressResolverGroup.INSTANCE) {
                resolver.close();
            }
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    static String render(FullHttpResponse response) {
        StringBuilder sb = new StringBuilder().append(response.protocolVersion()).append(' ').append(response.status())
                .append('\n');
        for (int i = 0; i < response.headers().size(); i++) {
            sb.append(response.headers().nameAt(i)).append(": ").append(response.headers().valueAt(i)).append('\n');
        }
        return sb.append('\n').append(response.content().toString(StandardCharsets.UTF_8)).toString();
    }

    /** Completes the promise with the first whole response, or fails it. */
    private static final class Receiver implements ChannelHandler {
        private final Promise<FullHttpResponse> done;

        Receiver(Promise<FullHttpResponse> done) {
            this.done = done;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpResponse response = (FullHttpResponse) msg;
            if (response.decoderResult().isFailure()) {
                response.release();
                done.tryFailure(response.decoderResult().cause());
            } else if (!done.trySuccess(response)) {
                response.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            done.tryFailure(new IllegalStateException("the server closed the connection before a whole response"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.tryFailure(cause);
            ctx.close();
        }
    }
}
