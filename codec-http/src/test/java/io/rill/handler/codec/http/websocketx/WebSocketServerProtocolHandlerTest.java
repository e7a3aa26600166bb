package io.rill.handler.codec.http.websocketx;

import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.bytes;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.client;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.HttpVersion;

/** The server handshake and what follows it, over an {@link EmbeddedChannel}. */
class WebSocketServerProtocolHandlerTest {

    static final String UPGRADE = "GET /ws HTTP/1.1\r\nHost: example.com\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";

    /** Records what reaches the application: frames as text, events by name. */
    static class App implements ChannelHandler {
        final List<String> seen = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            WebSocketFrame frame = (WebSocketFrame) msg;
            seen.add(frame.getClass().getSimpleName() + ":" + frame.content().toString(StandardCharsets.UTF_8));
            frame.release();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof WebSocketHandshakeComplete done) {
                seen.add("complete " + done.uri() + " " + done.subprotocol());
            } else if (evt instanceof WebSocketCloseReceived close) {
                seen.add("close " + close.status() + " " + close.reason());
            }
        }
    }

    static EmbeddedChannel server(WebSocketServerProtocolHandler.Builder builder, App app) {
        return new EmbeddedChannel(new HttpServerCodec(), builder.build(), app);
    }

    static String written(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            out.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return out.toString();
    }

    static String writtenHex(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            out.append(ByteBufUtil.hexDump(b));
            b.release();
        }
        return out.toString();
    }

    static void send(EmbeddedChannel ch, String text) {
        ch.writeInbound(Unpooled.copiedBuffer(text.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void answersTheRfcSampleKeyAndSwitchesToFrames() {
        App app = new App();
        EmbeddedChannel ch = server(WebSocketServerProtocolHandler.builder("/ws"), app);
        send(ch, UPGRADE + "\r\n");
        String response = written(ch);
        assertTrue(response.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), response);
        assertTrue(response.toLowerCase().contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="), response);
        ch.writeInbound(Unpooled.wrappedBuffer(bytes(client(0x81, "hello"), client(0x82, "bin"))));
        assertEquals(List.of("complete /ws null", "TextWebSocketFrame:hello", "BinaryWebSocketFrame:bin"), app.seen);
        assertTrue(ch.pipeline().get(HttpServerCodec.class) == null);
        ch.finishAndReleaseAll();
    }

    @Test
    void framesSentWithTheRequestReachTheApplication() {
        App app = new App();
        EmbeddedChannel ch = server(WebSocketServerProtocolHandler.builder("/ws"), app);
        byte[] request = (UPGRADE + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        ch.writeInbound(Unpooled.wrappedBuffer(bytes(request, client(0x81, "early"))));
        written(ch);
        assertEquals(List.of("complete /ws null", "TextWebSocketFrame:early"), app.seen);
        ch.finishAndReleaseAll();
    }

    @Test
    void choosesTheClientsFirstSupportedSubprotocol() {
        App app = new App();
        EmbeddedChannel ch = server(WebSocketServerProtocolHandler.builder("/ws").subprotocols("b", "c"), app);
        send(ch, UPGRADE + "Sec-WebSocket-Protocol: a, c, b\r\n\r\n");
        assertTrue(written(ch).toLowerCase().contains("sec-websocket-protocol: c\r\n"));
        assertEquals(List.of("complete /ws c"), app.seen);
        ch.finishAndReleaseAll();
    }

    @Test
    void answersPingsWithPongsAndDropsPongs() {
        App app = new App();
        EmbeddedChannel ch = server(WebSocketServerProtocolHandler.builder("/ws"), app);
        send(ch, UPGRADE + "\r\n");
        written(ch);
        ch.writeInbound(Unpooled.wrappedBuffer(bytes(client(0x89, "abc"), client(0x8A, "x"))));
        assertEquals("8a03616263", writtenHex(ch));
        assertEquals(List.of("complete /ws null"), app.seen);
        ch.finishAndReleaseAll();
    }

    @Test
    void echoesThePeersCloseAndCloses() {
        App app = new App();
        EmbeddedChannel ch = server(WebSocketServerProtocolHandler.builder("/ws"), app);
        send(ch, UPGRADE + "\r\n");
        written(ch);
        ch.writeInbound(Unpooled.wrappedBuffer(client(0x88, hex("03 E9 62 79 65"))));
        assertEquals("880203e9", writtenHex(ch));
        assertEquals(List.of("complete /ws null", "close 1001 bye"), app.seen);
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void closesWhenThePeerDoesNotAnswerOurClose() {
        App app = new App();
        EmbeddedChannel ch = server(WebSocketServerProtocolHandler.builder("/ws").closeTimeout(Duration.ofSeconds(2)), app);
        send(ch, UPGRADE + "\r\n");
        written(ch);
        ch.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.GOING_AWAY, "restart"));
        assertEquals("8809" + "03e9" + ByteBufUtil.hexDump("restart".getBytes(StandardCharsets.UTF_8)), writtenHex(ch));
        ch.advanceTimeBy(1, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertTrue(ch.isOpen());
        ch.advanceTimeBy(2, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void passesOtherPathsOnAsHttp() {
        List<Object> seen = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(),
                WebSocketServerProtocolHandler.builder("/ws").build(), new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        seen.add(msg.getClass().getSimpleName());
                        io.rill.buffer.ReferenceCountUtil.release(msg);
                    }
                });
        send(ch, "GET /other HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals(2, seen.size(), seen.toString());
        assertTrue(ch.pipeline().get(WebSocketServerProtocolHandler.class) != null);
        ch.finishAndReleaseAll();
    }

    @Test
    void upgradesEveryPathBelowAPrefix() {
        App app = new App();
        EmbeddedChannel ch = server(WebSocketServerProtocolHandler.builder("/ws").pathPrefix(true), app);
        send(ch, UPGRADE.replace("GET /ws ", "GET /ws/room/1?x=y ") + "\r\n");
        assertTrue(written(ch).startsWith("HTTP/1.1 101"));
        assertEquals(List.of("complete /ws/room/1?x=y null"), app.seen);
        ch.finishAndReleaseAll();
    }

    /** Answers {@code GET /} with a page; passes everything else on. */
    static final class IndexPage implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FullHttpRequest request && request.uri().equals("/")) {
                request.release();
                FullHttpResponse page = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        Unpooled.copiedBuffer("<p>page</p>", StandardCharsets.US_ASCII));
                page.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, page.content().readableBytes());
                ctx.writeAndFlush(page);
                return;
            }
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * Issue 31: Netty code removes its own index-page handler when the handshake completes. The
     * upgrade removes the codec, the aggregator and itself, and leaves the page handler to the
     * application, so that removal finds it (instead of throwing NoSuchElementException).
     */
    @Test
    void leavesTheApplicationsHandlersBetweenCodecAndItselfForTheApplicationToRemove() {
        App app = new App() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt instanceof WebSocketHandshakeComplete) {
                    ctx.pipeline().remove(IndexPage.class);
                }
                super.userEventTriggered(ctx, evt);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpObjectAggregator(65536), new IndexPage(),
                WebSocketServerProtocolHandler.builder("/ws").build(), app);
        send(ch, "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");
        String page = written(ch);
        assertTrue(page.startsWith("HTTP/1.1 200 OK\r\n") && page.endsWith("<p>page</p>"), page);
        send(ch, UPGRADE + "\r\n");
        assertTrue(written(ch).startsWith("HTTP/1.1 101 Switching Protocols\r\n"));
        assertEquals(List.of("complete /ws null"), app.seen);
        assertNull(ch.pipeline().get(IndexPage.class));
        assertNull(ch.pipeline().get(HttpServerCodec.class));
        assertNull(ch.pipeline().get(HttpObjectAggregator.class));
        assertNull(ch.pipeline().get(WebSocketServerProtocolHandler.class));
        ch.writeInbound(Unpooled.wrappedBuffer(client(0x81, "hello")));
        assertEquals(List.of("complete /ws null", "TextWebSocketFrame:hello"), app.seen);
        ch.checkException();
        ch.finishAndReleaseAll();
    }

    /** An application handler the application does not remove stays, and frames pass through it both ways. */
    @Test
    void framesPassThroughAnApplicationHandlerLeftBetweenCodecAndItself() {
        App app = new App();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerKeepAliveHandler(), new IndexPage(),
                WebSocketServerProtocolHandler.builder("/ws").build(), app);
        send(ch, UPGRADE + "\r\n");
        assertTrue(written(ch).startsWith("HTTP/1.1 101 "));
        assertNotNull(ch.pipeline().get(IndexPage.class));
        assertNull(ch.pipeline().get(HttpServerKeepAliveHandler.class));
        ch.writeInbound(Unpooled.wrappedBuffer(client(0x81, "in")));
        ch.writeAndFlush(new TextWebSocketFrame("out"));
        assertEquals("81036f7574", writtenHex(ch));
        assertEquals(List.of("complete /ws null", "TextWebSocketFrame:in"), app.seen);
        ch.finishAndReleaseAll();
    }

    @Test
    void closesAConnectionThatSendsNoRequestInTime() {
        EmbeddedChannel ch = server(WebSocketServerProtocolHandler.builder("/ws").handshakeTimeout(Duration.ofSeconds(3)),
                new App());
        ch.advanceTimeBy(4, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }
}
