package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpDecoderConfig;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.haproxy.HAProxyMessageDecoder;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.handler.codec.http.HttpUtil;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.ssl.SslContext;
import io.rill.util.AsciiString;
import io.rill.util.InternalLogger;

/**
 * The TechEmpower plaintext server: {@code GET /plaintext} (and GET or HEAD of any path) answers
 * {@code Hello, World!}; {@code POST /echo} echoes the request body (up to 1 MiB, 413 beyond).
 * Keep-alive, pipelining (one flush per read batch), and {@code --idle-timeout SECONDS} (default
 * 30) for connections that stay idle or send a request head too slowly. Try
 * {@code curl -i http://127.0.0.1:8080/plaintext}.
 */
final class HttpHelloServer implements Example {

    static final int MAX_ECHO_BODY = 1 << 20;

    @Override
    public String name() {
        return "http-hello";
    }

    @Override
    public String description() {
        return "HTTP/1.1 hello world and POST /echo (try: curl -i http://HOST:PORT/plaintext)";
    }

    private static final ExampleOption TLS = ExampleOption.flag("tls",
            "HTTPS with a self-signed certificate made at start-up (try curl -k)");

    private static final ExampleOption PROXY_PROTOCOL = ExampleOption.flag("proxy-protocol",
            "expect a PROXY protocol v1/v2 header first (from haproxy send-proxy, within 5 s); GET /client reports"
                    + " the client address it gave");

    @Override
    public List<ExampleOption> options() {
        return List.of(HttpTimeoutOptions.HEADER_TIMEOUT, HttpTimeoutOptions.BODY_TIMEOUT,
                HttpTimeoutOptions.IDLE_TIMEOUT, TLS, PROXY_PROTOCOL);
    }

    @Override
    public List<String> limits() {
        return HttpTimeoutOptions.limits("POST /echo body: 1 MiB (413 beyond)");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        SslContext tls = options.flag(TLS) ? ExampleTls.selfSignedServerContext(name()) : null;
        ServerRunner.run(options, name(), initializer(HttpTimeoutOptions.from(options), tls,
                options.flag(PROXY_PROTOCOL)));
    }

    /**
     * The pipeline of one connection, behind TLS when {@code tls} is not null; shared with
     * port-unification. Two handlers, like the leanest hello server: the codec (which also closes
     * connections that send no complete request head within {@code idleSeconds}: idle keep-alive
     * and Slowloris) and {@link HelloHandler}, which joins a body only for {@code POST}.
     */
    static ChannelInitializer<Channel> initializer(HttpServerTimeouts timeouts, SslContext tls) {
        return initializer(timeouts, tls, false);
    }

    /** As above, with a PROXY protocol header read first and reported at {@code GET /client} when asked. */
    static ChannelInitializer<Channel> initializer(HttpServerTimeouts timeouts, SslContext tls, boolean proxyProtocol) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (proxyProtocol) {
                    ch.pipeline().addLast(new HAProxyMessageDecoder());
                }
                if (tls != null) {
                    ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                    TlsFailureLog.addBehindTls(ch, "http-hello");
                }
                ch.pipeline().addLast(new HttpServerCodec(HttpDecoderConfig.DEFAULT,
                        HttpServerCodec.DEFAULT_MAX_PENDING_REQUESTS, timeouts));
                if (proxyProtocol) {
                    ch.pipeline().addLast(new ProxyProtocolReport());
                }
                ch.pipeline().addLast(new HelloHandler());
            }
        };
    }

    /**
     * Answers every request; writes per request, flushes once per read batch. A keep-alive GET or
     * HEAD gets the response of the current second, one object shared by every connection and
     * thread (read-only headers, a constant body): the server allocates nothing for it. A request
     * that ends the connection ({@code Connection: close}, HTTP/1.0) gets its own response with
     * {@code Connection: close}; the connection closes once it is sent, and requests after it are
     * dropped. A {@code POST} body is joined by an {@link HttpObjectAggregator} that is in the
     * pipeline only while that body arrives, so a GET never passes through it.
     */
    static final class HelloHandler implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(HelloHandler.class);

        /** A request asked to end the connection: what follows it is dropped. */
        private boolean closing;
        /** Joins the body of the POST being read; in the pipeline only meanwhile. */
        private HttpObjectAggregator echoBody;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (closing) {
                ReferenceCountUtil.release(msg);
            } else if (msg instanceof FullHttpRequest post) {
                removeBodyJoiner(ctx);
                try {
                    respondToPost(ctx, post);
                } finally {
                    post.release();
                }
            } else if (msg instanceof HttpRequest request) {
                HttpMethod m = request.method();
                if (m.equals(HttpMethod.GET) || m.equals(HttpMethod.HEAD)) {
                    if (HttpVersion.HTTP_1_1.equals(request.protocolVersion()) && HttpUtil.isKeepAlive(request)) {
                        ctx.write(HelloResponse.shared(), ctx.voidPromise());
                    } else {
                        send(ctx, HelloResponse.fresh(), request);
                    }
                } else if (m.equals(HttpMethod.POST)) {
                    joinBody(ctx, request);
                } else {
                    FullHttpResponse refused = response(HttpResponseStatus.METHOD_NOT_ALLOWED, Unpooled.EMPTY_BUFFER);
                    refused.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD, POST");
                    send(ctx, refused, request);
                }
            } else {
                ReferenceCountUtil.release(msg); // the end of a GET: nothing to do
            }
        }

        /** Puts an aggregator before this handler and passes it the head; the body follows it there. */
        private void joinBody(ChannelHandlerContext ctx, HttpRequest post) {
            echoBody = new HttpObjectAggregator(MAX_ECHO_BODY);
            ctx.pipeline().addBefore(ctx.name(), null, echoBody);
            ctx.pipeline().context(HttpServerCodec.class).fireChannelRead(post);
        }

        private void removeBodyJoiner(ChannelHandlerContext ctx) {
            if (echoBody != null) {
                ctx.pipeline().remove(echoBody);
                echoBody = null;
            }
        }

        private void respondToPost(ChannelHandlerContext ctx, FullHttpRequest post) {
            if (!post.uri().equals("/echo")) {
                send(ctx, response(HttpResponseStatus.NOT_FOUND, Unpooled.EMPTY_BUFFER), post);
                return;
            }
            FullHttpResponse echo = response(HttpResponseStatus.OK, post.content().retain());
            CharSequence type = post.headers().getCharSequence(HttpHeaderNames.CONTENT_TYPE);
            echo.headers().set(HttpHeaderNames.CONTENT_TYPE, type != null ? type : HttpHeaderValues.APPLICATION_OCTET_STREAM);
            send(ctx, echo, post);
        }

        /** Sends a response of its own, saying whether the connection stays (RFC 9112 §9.3). */
        private void send(ChannelHandlerContext ctx, FullHttpResponse response, HttpRequest request) {
            if (HttpUtil.isKeepAlive(request)) {
                if (HttpVersion.HTTP_1_0.equals(request.protocolVersion())) {
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                }
                ctx.write(response, ctx.voidPromise());
                return;
            }
            closing = true;
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(f -> ctx.close());
        }

        private static FullHttpResponse response(HttpResponseStatus status, ByteBuf body) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.readableBytes()))
                    .set(HttpHeaderNames.SERVER, HelloResponse.SERVER).set(HttpHeaderNames.DATE, HttpDateCache.now());
            return response;
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error: {}", ctx.channel(), cause.toString());
            ctx.close();
        }
    }

    /** {@code Hello, World!} with the four fields of the plaintext test. */
    static final class HelloResponse {
        static final AsciiString SERVER = AsciiString.cached("Rill");
        private static final ByteBuf HELLO = Unpooled.constantBuffer("Hello, World!".getBytes(StandardCharsets.US_ASCII));
        private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
        private static final AsciiString HELLO_LENGTH = AsciiString.cached("13");
        private static volatile Entry current = new Entry(AsciiString.EMPTY, null);

        private record Entry(AsciiString date, FullHttpResponse response) {
        }

        private HelloResponse() {
        }

        /** The response of the current second, shared: read-only, never to be changed or released. */
        static FullHttpResponse shared() {
            AsciiString date = HttpDateCache.now();
            Entry e = current;
            if (e.date != date) {
                e = new Entry(date, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, HELLO,
                        fields(date).toReadOnly(), HttpHeaders.EMPTY));
                current = e;
            }
            return e.response;
        }

        /** A response of its own, which the caller may change. */
        static FullHttpResponse fresh() {
            return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, HELLO,
                    fields(HttpDateCache.now()), new HttpHeaders(false));
        }

        private static HttpHeaders fields(AsciiString date) {
            return new HttpHeaders(false).add(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN)
                    .add(HttpHeaderNames.CONTENT_LENGTH, HELLO_LENGTH)
                    .add(HttpHeaderNames.SERVER, SERVER)
                    .add(HttpHeaderNames.DATE, date);
        }
    }

    /** The {@code Date} header value, formatted once per second. */
    static final class HttpDateCache {
        private static volatile Entry current = new Entry(0, AsciiString.EMPTY);

        private record Entry(long second, AsciiString value) {
        }

        private HttpDateCache() {
        }

        static AsciiString now() {
            long millis = System.currentTimeMillis();
            Entry e = current;
            if (e.second != millis / 1000) {
                e = new Entry(millis / 1000, AsciiString.cached(io.rill.handler.codec.http.DateFormatter.format(millis)));
                current = e;
            }
            return e.value;
        }
    }
}
