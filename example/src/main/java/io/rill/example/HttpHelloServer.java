package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMessage;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;
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
        return "HTTP/1.1 hello world and POST /echo (try: curl -i http://HOST:PORT/plaintext; --idle-timeout SECONDS;"
                + " --tls: HTTPS with a self-signed certificate, try curl -k https://HOST:PORT/)";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        options.rejectUnknown("idle-timeout", "tls");
        int idleSeconds = options.getInt("idle-timeout", 30, 1, 86_400);
        SslContext tls = Boolean.parseBoolean(options.get("tls", "false")) ? ExampleTls.selfSignedServerContext(name()) : null;
        ServerRunner.run(options, name(), initializer(idleSeconds, tls));
    }

    /** The pipeline of one connection, behind TLS when {@code tls} is not null; shared with port-unification. */
    static ChannelInitializer<Channel> initializer(int idleSeconds, SslContext tls) {
        HelloHandler hello = new HelloHandler();
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                }
                ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                        new RequestHeadTimeout(idleSeconds), new EchoAggregator(), hello);
            }
        };
    }

    /** Joins only the bodies of POST requests: a GET costs no aggregation. */
    private static final class EchoAggregator extends HttpObjectAggregator {
        EchoAggregator() {
            super(MAX_ECHO_BODY);
        }

        @Override
        protected boolean shouldAggregate(HttpMessage head) {
            return head instanceof HttpRequest r && r.method().equals(HttpMethod.POST);
        }
    }

    /** Answers every request; writes per request, flushes once per read batch. */
    @ChannelHandler.Sharable
    static final class HelloHandler implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(HelloHandler.class);
        private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
        private static final AsciiString SERVER = AsciiString.cached("Rill");
        private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
        private static final AsciiString HELLO_LENGTH = AsciiString.cached("13");

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FullHttpRequest post) {
                try {
                    respondToPost(ctx, post);
                } finally {
                    post.release();
                }
            } else if (msg instanceof HttpRequest request) {
                HttpMethod m = request.method();
                if (m.equals(HttpMethod.GET) || m.equals(HttpMethod.HEAD)) {
                    ctx.write(hello(request), ctx.voidPromise());
                } else {
                    FullHttpResponse refused = response(request.protocolVersion(), HttpResponseStatus.METHOD_NOT_ALLOWED,
                            Unpooled.EMPTY_BUFFER);
                    refused.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD, POST");
                    ctx.write(refused, ctx.voidPromise());
                }
            } else if (msg instanceof LastHttpContent last) {
                last.release(); // the end of a GET: nothing to do
            } else {
                io.rill.buffer.ReferenceCountUtil.release(msg);
            }
        }

        private static FullHttpResponse hello(HttpRequest request) {
            FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(HELLO), new HttpHeaders(false), HttpHeaders.EMPTY);
            response.headers().add(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN)
                    .add(HttpHeaderNames.CONTENT_LENGTH, HELLO_LENGTH)
                    .add(HttpHeaderNames.SERVER, SERVER)
                    .add(HttpHeaderNames.DATE, HttpDateCache.now());
            return response;
        }

        private static void respondToPost(ChannelHandlerContext ctx, FullHttpRequest post) {
            if (!post.uri().equals("/echo")) {
                ctx.write(response(post.protocolVersion(), HttpResponseStatus.NOT_FOUND, Unpooled.EMPTY_BUFFER),
                        ctx.voidPromise());
                return;
            }
            FullHttpResponse echo = response(post.protocolVersion(), HttpResponseStatus.OK, post.content().retain());
            CharSequence type = post.headers().getCharSequence(HttpHeaderNames.CONTENT_TYPE);
            echo.headers().set(HttpHeaderNames.CONTENT_TYPE, type != null ? type : HttpHeaderValues.APPLICATION_OCTET_STREAM);
            ctx.write(echo, ctx.voidPromise());
        }

        private static FullHttpResponse response(HttpVersion version, HttpResponseStatus status, ByteBuf body) {
            FullHttpResponse response = new DefaultFullHttpResponse(version, status, body);
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.readableBytes()))
                    .set(HttpHeaderNames.SERVER, SERVER).set(HttpHeaderNames.DATE, HttpDateCache.now());
            return response;
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {0} after an error: {1}", ctx.channel(), cause.toString());
            ctx.close();
        }
    }

    /**
     * Closes a connection that does not complete a request head within the timeout: from when it
     * opens, and again from the end of each response. An idle keep-alive connection and a client
     * that sends its head a byte at a time (Slowloris) are both cut off; a slow body is not timed
     * here. One timer per connection is rescheduled lazily: answering a request only moves a
     * deadline, so a busy connection costs no timer operation per request.
     */
    static final class RequestHeadTimeout implements ChannelHandler {
        private final long timeoutNanos;
        /** When the connection must have sent a request head, or 0 while one is being served. */
        private long deadline;
        private boolean timerPending;

        RequestHeadTimeout(int seconds) {
            this.timeoutNanos = TimeUnit.SECONDS.toNanos(seconds);
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            arm(ctx);
            ctx.fireChannelActive();
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            if (ctx.channel().isActive()) {
                arm(ctx);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                deadline = 0;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, io.rill.util.concurrent.Promise<Void> promise) {
            ctx.write(msg, promise);
            if (msg instanceof LastHttpContent) {
                arm(ctx);
            }
        }

        private void arm(ChannelHandlerContext ctx) {
            deadline = System.nanoTime() + timeoutNanos;
            if (!timerPending) {
                schedule(ctx, timeoutNanos);
            }
        }

        private void schedule(ChannelHandlerContext ctx, long delayNanos) {
            timerPending = true;
            ctx.executor().schedule(() -> expire(ctx), delayNanos, TimeUnit.NANOSECONDS);
        }

        private void expire(ChannelHandlerContext ctx) {
            timerPending = false;
            if (deadline == 0 || !ctx.channel().isOpen()) {
                return; // serving a request (the response re-arms), or gone
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                ctx.close();
            } else {
                schedule(ctx, left);
            }
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
