package io.rill.example;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.handler.codec.http2.Http2StreamChannelBootstrap;
import io.rill.handler.codec.http2.HttpAlpnNegotiationHandler;
import io.rill.handler.ssl.SslContext;

/**
 * Fetches {@code --url http://host[:port]/path} over HTTP/2 with prior knowledge (h2c), or
 * {@code https://...} over h2 chosen by ALPN (trust as in {@link ClientTls}), on
 * {@code --streams N} streams of one connection (each a child channel, at most 100 at once), prints the
 * first response's status, fields and body, then a summary line of all of them. Exits 1 if a
 * stream fails or the whole does not finish within {@code --timeout SECONDS}.
 */
final class Http2ClientExample implements Example {

    private static final int MAX_BODY = 16 << 20;
    private static final int MAX_CONCURRENT = 100;

    private static final ExampleOption URL = ExampleOption.text("url", "URL", null,
            "what to fetch: http://host[:port]/path (h2c with prior knowledge) or https://... (h2 by ALPN); required");
    private static final ExampleOption STREAMS = ExampleOption.number("streams", "N", 1, 1, 10_000,
            "concurrent streams, each fetching the URL");
    private static final ExampleOption TIMEOUT = ExampleOption.number("timeout", "SECONDS", 30, 1, 3600,
            "give up (exit 1) when the responses have not all come by then");

    @Override
    public String name() {
        return "http2-client";
    }

    @Override
    public String description() {
        return "fetches an http:// or https:// URL over HTTP/2 on N concurrent streams (--url URL [--streams N])";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(URL, STREAMS, TIMEOUT, ClientTls.TRUST, ClientTls.INSECURE);
    }

    @Override
    public List<String> limits() {
        return List.of("response body: 16 MiB per stream (the stream is reset beyond)");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        URI uri = parse(options.text(URL));
        int streams = options.intValue(STREAMS);
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
        int timeout = options.intValue(TIMEOUT);
        SslContext tls = https ? HttpAlpnNegotiationHandler.offerH2AndHttp11(ClientTls.builder(options)).build() : null;
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        Http2Headers request = new Http2Headers().method("GET").scheme(https ? "https" : "http")
                .authority(uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + port).path(path)
                .add("user-agent", "rill-http2-client");
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name());
        try {
            // Completed once the connection speaks HTTP/2: at once for h2c, after ALPN chose h2 for https.
            CompletableFuture<Void> h2 = new CompletableFuture<>();
            Supplier<Http2FrameCodec> codec = () -> Http2FrameCodec.forClient().build();
            Supplier<ChannelHandler> multiplex = () -> {
                h2.complete(null);
                return new Http2MultiplexHandler(null);
            };
            String peer = uri.getHost() + ":" + port;
            Channel connection = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (tls == null) {
                                ch.pipeline().addLast(codec.get(), multiplex.get());
                                return;
                            }
                            HttpAlpnNegotiationHandler.addClientHandlers(ch, tls, uri.getHost(), port, codec, multiplex,
                                    () -> {
                                        h2.completeExceptionally(new IllegalStateException(peer
                                                + " chose http/1.1 by ALPN: it does not speak HTTP/2 (try http-client)"));
                                        return new ChannelInitializer<>() {
                                            @Override
                                            protected void initChannel(Channel x) {
                                                x.close();
                                            }
                                        };
                                    });
                            TlsFailureLog.quietBehindTls(ch);
                        }
                    }).connect(uri.getHost(), port).sync().getNow();
            if (tls != null) {
                ClientTls.awaitHandshake(connection, peer, timeout);
            }
            try {
                h2.get(timeout, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                connection.close();
                throw new StartupFailure(e.getCause().getMessage(), e.getCause());
            }
            Results results = new Results(streams);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
            for (int i = 0; i < streams; i++) {
                // Servers commonly allow 100 concurrent streams: a new one waits for a slot.
                if (!results.slots.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    break;
                }
                Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection)
                        .handler(new Response(results, i == 0)).open().sync().getNow();
                stream.writeAndFlush(new Http2HeadersFrame(0, request, true));
            }
            boolean done = results.latch.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            connection.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            System.out.println(results.summary());
            if (!done || results.failed.get() > 0) {
                throw new IllegalStateException(done ? results.failed.get() + " streams failed"
                        : "not every response came within " + options.intValue(TIMEOUT) + " s");
            }
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    private static URI parse(String url) {
        if (url == null) {
            throw new ExampleOptions.UsageException("--url is required");
        }
        try {
            URI uri = new URI(url);
            if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())
                    || uri.getHost() == null) {
                throw new ExampleOptions.UsageException("--url must be http://host[:port]/path (h2c with prior knowledge)"
                        + " or https://... (h2 by ALPN)");
            }
            return uri;
        } catch (java.net.URISyntaxException e) {
            throw new ExampleOptions.UsageException("--url '" + url + "': " + e.getMessage());
        }
    }

    /** What every stream got, counted across the loop threads. */
    static final class Results {
        final CountDownLatch latch;
        final Semaphore slots = new Semaphore(MAX_CONCURRENT);
        final Map<String, AtomicLong> statuses = new ConcurrentHashMap<>();
        final AtomicLong bytes = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        private final long start = System.nanoTime();

        Results(int streams) {
            latch = new CountDownLatch(streams);
        }

        String summary() {
            Map<String, Long> byStatus = new TreeMap<>();
            statuses.forEach((k, v) -> byStatus.put(k, v.get()));
            return String.format("%d responses %s, %d body bytes, %d failed, in %d ms", byStatus.values().stream()
                    .mapToLong(Long::longValue).sum(), byStatus, bytes.get(), failed.get(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
    }

    /** One stream's response; the first stream prints its own. */
    static final class Response implements ChannelHandler {
        private final Results results;
        private final boolean print;
        private long received;
        private boolean ended;

        Response(Results results, boolean print) {
            this.results = results;
            this.print = print;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame h) {
                    if (h.headers().status() != null) {
                        results.statuses.computeIfAbsent(String.valueOf(h.headers().status()), k -> new AtomicLong())
                                .incrementAndGet();
                    }
                    if (print) {
                        h.headers().forEach((n, v) -> System.out.println(n + ": " + v));
                        System.out.println();
                    }
                    end(h.endStream());
                } else if (msg instanceof Http2DataFrame d) {
                    received += d.content().readableBytes();
                    results.bytes.addAndGet(d.content().readableBytes());
                    if (received > MAX_BODY) {
                        ctx.close();
                        return;
                    }
                    if (print) {
                        System.out.print(d.content().toString(StandardCharsets.UTF_8));
                    }
                    end(d.endStream());
                } else if (msg instanceof Http2ResetFrame) {
                    results.failed.incrementAndGet();
                    end(true);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void end(boolean endStream) {
            if (endStream && !ended) {
                ended = true;
                if (print) {
                    System.out.println();
                }
                results.latch.countDown();
                results.slots.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!ended) {
                ended = true;
                results.failed.incrementAndGet();
                results.latch.countDown();
                results.slots.release();
            }
        }
    }
}
