package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;

/**
 * h2c over real loopback sockets: the upgrade (with a request body) from a raw client and from
 * {@link Http2ClientUpgradeHandler}, prior knowledge and HTTP/1.1 on one port through
 * {@link CleartextHttpProtocolDetector}. Field blocks are {@link TextFieldCodec} text, not HPACK.
 */
class Http2CleartextLoopbackTest {

    private static final Http2Config CLIENT = new Http2Config(false, 100, 65_535, 65_535, 8192, 4096, 10_000);

    static void upgradeablePipeline(Channel ch) {
        ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                new Http2ServerUpgradeHandler(Http2ServerUpgradeHandlerTest::textCodec, Http2ServerUpgradeHandlerTest::streamOne),
                new Http1EchoHandler());
    }

    static void detectingPipeline(Channel ch) {
        ch.pipeline().addLast(new CleartextHttpProtocolDetector(Http2ServerUpgradeHandlerTest::textCodec,
                Http2ServerUpgradeHandlerTest::streamOne, () -> new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel c) {
                        upgradeablePipeline(c);
                    }
                }));
    }

    @Test
    void anUpgradeRequestWithABodyIsAnsweredOnStreamOneUnderTheClientsSettings() throws Exception {
        String body = "x".repeat(20_000);
        String settings = Http2ClientUpgradeHandler.encodeSettings(new Http2Settings()
                .put(Http2Settings.MAX_FRAME_SIZE, 32_768));
        try (LoopbackServer server = new LoopbackServer(Http2CleartextLoopbackTest::upgradeablePipeline);
             RawH2cClient client = new RawH2cClient(server.port())) {
            client.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: " + settings + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
            assertTrue(client.readHttp1Head().startsWith("HTTP/1.1 101 Switching Protocols\r\n"));
            client.send(out -> {
                Http2Frames.writePreface(out);
                client.writer.writeSettings(out, new Http2Settings());
            });
            List<String> frames = client.readFramesUntil(f -> f.endsWith("END_STREAM"));
            if (!frames.contains("SETTINGS ACK")) {
                frames.addAll(client.readFramesUntil("SETTINGS ACK"::equals));
            }
            int length = "POST /upload host=127.0.0.1\n".length() + body.length();
            assertTrue(frames.contains("HEADERS 1 Http2Headers[:status: 200, content-length: " + length
                    + ", content-type: text/plain]"), frames.toString());
            assertTrue(frames.contains("DATA 1 " + length + " END_STREAM"),
                    "one frame: the client's SETTINGS_MAX_FRAME_SIZE from HTTP2-Settings applies: " + frames);
            assertTrue(frames.contains("SETTINGS ACK"), "the preface's SETTINGS are acknowledged: " + frames);
        }
    }

    @Test
    void theUpgradeHandlerOfTheClientGetsTheResponseOverHttp2() throws Exception {
        try (LoopbackServer server = new LoopbackServer(Http2CleartextLoopbackTest::upgradeablePipeline)) {
            ResponseCollector collector = new ResponseCollector();
            Channel ch = server.connect(c -> c.pipeline().addLast(new HttpClientCodec(),
                    new Http2ClientUpgradeHandler(Http2CleartextLoopbackTest::clientCodec, () -> new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel s) {
                            s.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(false, true, null), collector);
                        }
                    }), collector));
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/hello");
            request.headers().set("host", "localhost");
            ch.writeAndFlush(request);
            assertEquals("UPGRADED 200 GET /hello host=localhost\n", collector.result.get(10, TimeUnit.SECONDS));
            ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aServerThatDoesNotUpgradeAnswersTheClientInHttp11() throws Exception {
        try (LoopbackServer server = new LoopbackServer(ch -> ch.pipeline().addLast(new HttpServerCodec(), new Http1EchoHandler()))) {
            ResponseCollector collector = new ResponseCollector();
            Channel ch = server.connect(c -> c.pipeline().addLast(new HttpClientCodec(),
                    new Http2ClientUpgradeHandler(Http2CleartextLoopbackTest::clientCodec, ResponseCollector::new), collector));
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/plain");
            request.headers().set("host", "localhost");
            ch.writeAndFlush(request);
            assertEquals("REJECTED 200 GET /plain host=localhost\n", collector.result.get(10, TimeUnit.SECONDS));
            ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void priorKnowledgeAndHttp11ShareAPort() throws Exception {
        try (LoopbackServer server = new LoopbackServer(Http2CleartextLoopbackTest::detectingPipeline)) {
            try (RawH2cClient h2 = new RawH2cClient(server.port())) {
                h2.send(out -> {
                    Http2Frames.writePreface(out);
                    h2.writer.writeSettings(out, new Http2Settings());
                    h2.writer.writeHeaders(out, 1, new Http2Headers().method("PUT").scheme("http").authority("pk.test")
                            .path("/pk"), false);
                    h2.writer.writeDataHeader(out, 1, 3, true);
                    out.writeBytes("abc".getBytes(StandardCharsets.US_ASCII));
                });
                List<String> frames = h2.readFramesUntil(f -> f.endsWith("END_STREAM"));
                assertEquals("DATA 1 " + "PUT /pk host=pk.test\nabc".length() + " END_STREAM", frames.get(frames.size() - 1));
            }
            try (RawH2cClient http1 = new RawH2cClient(server.port())) {
                http1.send("GET /one HTTP/1.1\r\nHost: h1.test\r\nConnection: close\r\n\r\n");
                String response = http1.readUntilClose();
                assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n") && response.endsWith("GET /one host=h1.test\n"), response);
            }
            try (RawH2cClient upgrade = new RawH2cClient(server.port())) {
                upgrade.send("GET /up HTTP/1.1\r\nHost: up.test\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                        + "HTTP2-Settings: " + Http2ServerUpgradeHandlerTest.SETTINGS + "\r\n\r\n");
                assertTrue(upgrade.readHttp1Head().startsWith("HTTP/1.1 101 "), "the HTTP/1.1 side still upgrades");
            }
        }
    }

    @Test
    void aClientWithPriorKnowledgeTalksHttp2FromItsFirstByte() throws Exception {
        try (LoopbackServer server = new LoopbackServer(Http2CleartextLoopbackTest::detectingPipeline)) {
            ResponseCollector collector = new ResponseCollector();
            Channel ch = server.connect(c -> c.pipeline().addLast(clientCodec(),
                    new Http2StreamFrameToHttpObjectCodec(false, true, null), collector));
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/pk",
                    io.rill.buffer.Unpooled.copiedBuffer("data", StandardCharsets.US_ASCII));
            request.headers().set("host", "pk.test").setInt("content-length", 4);
            ch.writeAndFlush(request);
            assertEquals("200 POST /pk host=pk.test\ndata", collector.result.get(10, TimeUnit.SECONDS));
            ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    /** Each stream a child channel running the HTTP/1 handler; the stream channel returns the credit. */
    static Http2MultiplexHandler multiplexedEcho() {
        return new Http2MultiplexHandler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel stream) {
                stream.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true), new Http1EchoHandler());
            }
        });
    }

    @Test
    void withStreamChannelsTheUpgradeIsStreamOneAndLaterStreamsAreServedBeside() throws Exception {
        try (LoopbackServer server = new LoopbackServer(ch -> ch.pipeline().addLast(new HttpServerCodec(),
                new Http2ServerUpgradeHandler(Http2ServerUpgradeHandlerTest::textCodec, Http2CleartextLoopbackTest::multiplexedEcho),
                new Http1EchoHandler()));
             RawH2cClient client = new RawH2cClient(server.port())) {
            client.send("POST /one HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                    + "HTTP2-Settings: " + Http2ServerUpgradeHandlerTest.SETTINGS + "\r\nContent-Length: 3\r\n\r\nabc");
            assertTrue(client.readHttp1Head().startsWith("HTTP/1.1 101 "));
            client.send(out -> {
                Http2Frames.writePreface(out);
                client.writer.writeSettings(out, new Http2Settings());
                client.writer.writeSettingsAck(out);
                client.writer.writeHeaders(out, 3, new Http2Headers().method("PUT").scheme("http").authority("h")
                        .path("/three"), false);
                for (int i = 0; i < 4; i++) { // 64,000 bytes: within the stream's 65,535-byte window
                    client.writer.writeDataHeader(out, 3, 16_000, i == 3);
                    out.writeZero(16_000);
                }
            });
            List<String> frames = client.readFramesUntilSeen("WINDOW_UPDATE 0", "HEADERS 3", "DATA 1");
            assertTrue(frames.contains("DATA 1 " + "POST /one host=h\nabc".length() + " END_STREAM"), frames.toString());
            assertTrue(frames.contains("HEADERS 3 Http2Headers[:status: 200, content-length: "
                    + ("PUT /three host=h\n".length() + 64_000) + ", content-type: text/plain]"), frames.toString());
            // The stream channel returned the credit as the handler read the content (the codec sends it in halves of the window).
            assertTrue(frames.contains("WINDOW_UPDATE 0 48000"), frames.toString());
        }
    }

    @Test
    void aClientOpensConcurrentStreamChannelsEachRunningHttp1Handlers() throws Exception {
        try (LoopbackServer server = new LoopbackServer(ch -> ch.pipeline().addLast(new CleartextHttpProtocolDetector(
                Http2ServerUpgradeHandlerTest::textCodec, Http2CleartextLoopbackTest::multiplexedEcho,
                () -> new Http1EchoHandler())))) {
            Channel connection = server.connect(c -> c.pipeline().addLast(clientCodec(),
                    new Http2MultiplexHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel pushed) {
                            // push is disabled: the server opens no stream
                        }
                    })));
            List<ResponseCollector> collectors = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ResponseCollector collector = new ResponseCollector();
                collectors.add(collector);
                Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection).handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel s) {
                        s.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(false), collector);
                    }
                }).open().get(10, TimeUnit.SECONDS);
                FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/s" + i,
                        io.rill.buffer.Unpooled.copiedBuffer("#" + i, StandardCharsets.US_ASCII));
                request.headers().set("host", "mux.test");
                stream.writeAndFlush(request);
            }
            for (int i = 0; i < 3; i++) {
                assertEquals("200 POST /s" + i + " host=mux.test\n#" + i, collectors.get(i).result.get(10, TimeUnit.SECONDS));
            }
            connection.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    static Http2FrameCodec clientCodec() {
        TextFieldCodec fields = new TextFieldCodec();
        return new Http2FrameCodec(CLIENT, fields, fields);
    }

    /** Collects the upgrade outcome, the status and the body of one response, HTTP/1.1 or HTTP/2 alike. */
    @ChannelHandler.Sharable
    static final class ResponseCollector implements ChannelHandler {
        final CompletableFuture<String> result = new CompletableFuture<>();
        private final StringBuilder text = new StringBuilder();

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof Http2ClientUpgradeHandler.Event event) {
                text.append(event).append(' ');
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpResponse response) {
                text.append(response.status().code()).append(' ');
            }
            if (msg instanceof HttpContent content) {
                text.append(content.content().toString(StandardCharsets.UTF_8));
                if (content instanceof LastHttpContent) {
                    result.complete(text.toString());
                }
            }
            ReferenceCountUtil.release(msg);
        }
    }
}
