package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.BlockingExecutor;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpDecoderConfig;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.handler.codec.http.HttpUtil;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.util.InternalLogger;

/**
 * An HTTP server whose handler calls a blocking API: {@code GET /slow} (any path but {@code /fast})
 * waits {@code --delay-ms} in {@link Thread#sleep}, standing in for a JDBC query, on a
 * {@link BlockingExecutor}, which runs it on a virtual thread on JDK 21+ and hands the answer back
 * on the connection's event loop. {@code GET /fast} is answered on the loop at once, and stays fast
 * however many slow requests are waiting: the loop never blocks. Pipelined requests on one
 * connection are answered in order, because the executor delivers each connection's results in
 * order. Try {@code curl -i http://127.0.0.1:8080/slow} next to {@code curl -i http://127.0.0.1:8080/fast}.
 */
final class HttpBlockingServer implements Example {

    private static final ExampleOption DELAY = ExampleOption.number("delay-ms", "MILLIS", 1000, 0, 600_000,
            "how long each slow request blocks its thread (Thread.sleep standing in for a database call)");

    @Override
    public String name() {
        return "http-blocking";
    }

    @Override
    public String description() {
        return "HTTP/1.1 with a blocking handler on virtual threads (try: curl -i http://HOST:PORT/slow and /fast)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(DELAY, HttpTimeoutOptions.HEADER_TIMEOUT, HttpTimeoutOptions.BODY_TIMEOUT,
                HttpTimeoutOptions.IDLE_TIMEOUT);
    }

    @Override
    public List<String> limits() {
        List<String> limits = new ArrayList<>(HttpTimeoutOptions.limits("request bodies: ignored (discarded as they arrive)"));
        limits.add("blocking calls held at once: 65,536 (rill.blocking.maxPendingTasks); beyond, 503 and the close");
        return limits;
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        BlockingExecutor blocking = new BlockingExecutor();
        System.err.println(name() + ": blocking calls run on " + (blocking.usesVirtualThreads()
                ? "virtual threads" : "a pool of platform threads (virtual threads need JDK 21+)"));
        try {
            ServerRunner.run(options, name(), initializer(blocking, options.number(DELAY), HttpTimeoutOptions.from(options)));
        } finally {
            blocking.close();
        }
    }

    static ChannelInitializer<Channel> initializer(BlockingExecutor blocking, long delayMillis, HttpServerTimeouts timeouts) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(HttpDecoderConfig.DEFAULT,
                        HttpServerCodec.DEFAULT_MAX_PENDING_REQUESTS, timeouts), new BlockingHandler(blocking, delayMillis));
            }
        };
    }

    /** Answers {@code /fast} on the loop and everything else from blocking code, in request order. */
    static final class BlockingHandler implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(BlockingHandler.class);

        private final BlockingExecutor blocking;
        private final long delayMillis;
        /** Requests of this connection whose answers the executor has not delivered yet. Loop only. */
        private int outstanding;

        BlockingHandler(BlockingExecutor blocking, long delayMillis) {
            this.blocking = blocking;
            this.delayMillis = delayMillis;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof HttpRequest request)) {
                ReferenceCountUtil.release(msg); // body content and the request's end: nothing to do
                return;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            if (request.uri().equals("/fast") && outstanding == 0) {
                respond(ctx, "fast\n", keepAlive); // on the loop, at once
                return;
            }
            // A fast request behind slow ones on this connection goes through the executor too
            // (with nothing to block on), or its answer would overtake theirs (HTTP/1.1 answers in order).
            Callable<String> work = request.uri().equals("/fast") ? () -> "fast\n" : slowQuery(request.uri());
            outstanding++;
            blocking.submit(ctx.channel(), work).addListener(f -> {
                outstanding--;
                if (f.isSuccess()) {
                    respond(ctx, (String) f.getNow(), keepAlive);
                } else {
                    LOG.debug("The blocking call failed on {}: {}", ctx.channel(), f.cause().toString());
                    respond(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "busy\n", false);
                }
            });
        }

        /** The blocking call, what a JDBC query would be; runs on a virtual thread (JDK 21+). */
        private Callable<String> slowQuery(String uri) {
            return () -> {
                Thread.sleep(delayMillis);
                return "slow " + uri + "\n";
            };
        }

        private static void respond(ChannelHandlerContext ctx, String body, boolean keepAlive) {
            respond(ctx, HttpResponseStatus.OK, body, keepAlive);
        }

        private static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String body, boolean keepAlive) {
            ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.US_ASCII);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                    .set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(content.readableBytes()));
            if (!keepAlive) {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(response).addListener(f -> ctx.close());
            } else {
                ctx.writeAndFlush(response);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error: {}", ctx.channel(), cause.toString());
            ctx.close();
        }
    }
}
