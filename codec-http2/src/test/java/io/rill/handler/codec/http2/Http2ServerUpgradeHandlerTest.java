package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpServerCodec;

/** {@link Http2ServerUpgradeHandler} after an {@link HttpServerCodec}, fed bytes as a client sends them. */
class Http2ServerUpgradeHandlerTest {

    static final Http2Config CONFIG = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000);
    static final String SETTINGS = Http2ClientUpgradeHandler.encodeSettings(new Http2Settings());

    private final FrameRecorder sent = new FrameRecorder(false);
    private EmbeddedChannel channel = server(Http2ServerUpgradeHandler.DEFAULT_MAX_BODY_BYTES);

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
        sent.release();
    }

    static Http2FrameCodec textCodec() {
        TextFieldCodec fields = new TextFieldCodec();
        return new Http2FrameCodec(CONFIG, fields, fields);
    }

    /** Stream 1's pipeline on a connection that carries only it: the adapter returns credit itself. */
    static ChannelInitializer<Channel> streamOne() {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true, true, null), new Http1EchoHandler());
            }
        };
    }

    private static EmbeddedChannel server(int maxBody) {
        return new EmbeddedChannel(new HttpServerCodec(),
                new Http2ServerUpgradeHandler(Http2ServerUpgradeHandlerTest::textCodec,
                        Http2ServerUpgradeHandlerTest::streamOne, maxBody),
                new Http1EchoHandler());
    }

    @Test
    void aValidUpgradeIsAnswered101AndTheRequestWithItsBodyIsStreamOne() throws Exception {
        channel.writeInbound(ascii("POST /up HTTP/1.1\r\nHost: example.com\r\nUpgrade: h2c\r\n"
                + "Connection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: " + SETTINGS + "\r\n"
                + "Content-Length: 5\r\n\r\nhello"));
        String head = readHttp1();
        assertTrue(head.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), head);
        assertTrue(head.toLowerCase().contains("upgrade: h2c\r\n"), head);
        List<String> frames = readFrames();
        assertTrue(frames.get(0).startsWith("SETTINGS Http2Settings["), "the server preface follows the 101: " + frames);
        assertEquals("HEADERS 1 Http2Headers[:status: 200, content-length: 31, content-type: text/plain]", frames.get(1));
        assertEquals("DATA 1 31 END_STREAM", frames.get(2));
        assertNull(channel.pipeline().get(HttpServerCodec.class), "the HTTP/1 handlers left");
        assertNull(channel.pipeline().get(Http2ServerUpgradeHandler.class));
        assertNotNull(channel.pipeline().get(Http2FrameCodec.class));
    }

    @Test
    void anUpgradeWithoutValidSettingsIsServedInHttp11() throws Exception {
        for (String settingsField : new String[] {"", "HTTP2-Settings: !!\r\n", "HTTP2-Settings: AAMAAABk\r\nHTTP2-Settings: AAMAAABk\r\n",
                "HTTP2-Settings: AAMAAA\r\n", "HTTP2-Settings: AAUAAAAA\r\n"}) {
            channel.writeInbound(ascii("POST /x HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + settingsField + "Content-Length: 2\r\n\r\nhi"));
            String response = readHttp1();
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), settingsField + " -> " + response);
            assertTrue(response.endsWith("POST /x host=h\nhi"), response);
        }
    }

    @Test
    void theConnectionFieldMustNameBothUpgradeAndHttp2Settings() throws Exception {
        channel.writeInbound(ascii("GET / HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n"
                + "HTTP2-Settings: " + SETTINGS + "\r\n\r\n"));
        assertTrue(readHttp1().startsWith("HTTP/1.1 200 OK\r\n"));
    }

    @Test
    void anUpgradeBodyOverTheLimitIs413AndTheConnectionStaysHttp11() throws Exception {
        channel.finishAndReleaseAll();
        channel = server(8);
        String upgrade = "POST /big HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "HTTP2-Settings: " + SETTINGS + "\r\n";
        channel.writeInbound(ascii(upgrade + "Content-Length: 9\r\n\r\n123456789"));
        assertTrue(readHttp1().startsWith("HTTP/1.1 413 Content Too Large\r\n"), "refused as announced");
        channel.writeInbound(ascii(upgrade + "Transfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n5\r\n67890\r\n0\r\n\r\n"));
        assertTrue(readHttp1().startsWith("HTTP/1.1 413 Content Too Large\r\n"), "refused once it grew too large");
        channel.writeInbound(ascii("GET /next HTTP/1.1\r\nHost: h\r\n\r\n"));
        String next = readHttp1();
        assertTrue(next.startsWith("HTTP/1.1 200 OK\r\n") && next.endsWith("GET /next host=h\n"), next);
    }

    @Test
    void anUpgradeExpecting100ContinueIsToldToContinue() throws Exception {
        channel.writeInbound(ascii("PUT /c HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "HTTP2-Settings: " + SETTINGS + "\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"));
        assertTrue(readHttp1().startsWith("HTTP/1.1 100 Continue\r\n"));
        channel.writeInbound(ascii("abc"));
        assertTrue(readHttp1().startsWith("HTTP/1.1 101 Switching Protocols\r\n"));
        List<String> frames = readFrames();
        assertEquals("DATA 1 " + "PUT /c host=h\nabc".length() + " END_STREAM", frames.get(frames.size() - 1));
    }

    @Test
    void anUpgradeBehindAnUnansweredRequestIsServedInHttp11() throws Exception {
        channel.finishAndReleaseAll();
        List<io.rill.handler.codec.http.HttpRequest> held = new ArrayList<>();
        channel = new EmbeddedChannel(new HttpServerCodec(), new Http2ServerUpgradeHandler(
                Http2ServerUpgradeHandlerTest::textCodec, Http2ServerUpgradeHandlerTest::streamOne),
                new io.rill.channel.ChannelHandler() {
                    @Override
                    public void channelRead(io.rill.channel.ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof io.rill.handler.codec.http.HttpRequest request) {
                            held.add(request); // answered later, as a slow application would
                        }
                        io.rill.buffer.ReferenceCountUtil.release(msg);
                    }
                });
        String upgrade = "GET /up HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "HTTP2-Settings: " + SETTINGS + "\r\n\r\n";
        channel.writeInbound(ascii("GET /first HTTP/1.1\r\nHost: h\r\n\r\n" + upgrade));
        assertEquals(2, held.size(), "both reached the HTTP/1.1 application");
        assertNull(channel.readOutbound(), "no 101 while /first waits for its response");
        for (int i = 0; i < 2; i++) {
            channel.writeOutbound(new io.rill.handler.codec.http.DefaultFullHttpResponse(
                    io.rill.handler.codec.http.HttpVersion.HTTP_1_1, io.rill.handler.codec.http.HttpResponseStatus.OK));
        }
        assertTrue(readHttp1().startsWith("HTTP/1.1 200 OK\r\n"));
        channel.writeInbound(ascii(upgrade));
        assertTrue(readHttp1().startsWith("HTTP/1.1 101 Switching Protocols\r\n"), "everything answered: now it upgrades");
    }

    @Test
    void thereIsNoH2cInsideTls() throws Exception {
        try (io.rill.handler.ssl.SslContext tls = io.rill.handler.ssl.SslContextBuilder.forServer(
                Http2AlpnLoopbackTest.CERT.key(), Http2AlpnLoopbackTest.CERT.certificate()).build()) {
            // Behind the HTTP/1 handlers only so that the test can feed plaintext: its presence is what counts.
            channel.pipeline().addLast(tls.newHandler(channel.alloc()));
            channel.writeInbound(ascii("GET /tls HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "HTTP2-Settings: " + SETTINGS + "\r\n\r\n"));
            assertTrue(readHttp1().startsWith("HTTP/1.1 200 OK\r\n"));
        }
    }

    @Test
    void theUpgradeHandlerNeedsAnHttpServerCodec() {
        channel.finishAndReleaseAll();
        channel = new EmbeddedChannel(new Http2ServerUpgradeHandler(Http2ServerUpgradeHandlerTest::textCodec,
                Http2ServerUpgradeHandlerTest::streamOne));
        io.rill.handler.codec.http.DefaultFullHttpRequest request = new io.rill.handler.codec.http.DefaultFullHttpRequest(
                io.rill.handler.codec.http.HttpVersion.HTTP_1_1, io.rill.handler.codec.http.HttpMethod.GET, "/");
        request.headers().set("upgrade", "h2c").set("connection", "upgrade, http2-settings").set("http2-settings", SETTINGS);
        assertThrows(IllegalStateException.class, () -> channel.writeInbound(request));
    }

    @Test
    void settingsRoundTripThroughBase64UrlAndAreCheckedOnTheWay() throws Exception {
        Http2Settings settings = new Http2Settings().put(Http2Settings.MAX_FRAME_SIZE, 32_768)
                .put(Http2Settings.INITIAL_WINDOW_SIZE, 1 << 20);
        String encoded = Http2ClientUpgradeHandler.encodeSettings(settings);
        assertFalse(encoded.contains("="));
        assertEquals(settings.toString(), Http2ServerUpgradeHandler.decodeSettings(encoded).toString());
        assertThrows(Http2Exception.class, () -> Http2ServerUpgradeHandler.decodeSettings("AAUAAAAA")); // frame size 0
    }

    // ---------------------------------------------------------------- helpers

    private static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** All HTTP/1 bytes written so far as text; for the upgrade, up to the end of the 101's head. */
    private String readHttp1() {
        StringBuilder sb = new StringBuilder();
        for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
            sb.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
            if (sb.indexOf("101 Switching") >= 0) {
                break;
            }
        }
        return sb.toString();
    }

    private List<String> readFrames() throws Exception {
        List<String> frames = new ArrayList<>();
        for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
            frames.addAll(sent.feed(b));
        }
        return frames;
    }
}
