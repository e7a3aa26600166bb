package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaders;

/** The client handshake against Rill's server, bytes shuttled between two {@link EmbeddedChannel}s. */
class WebSocketClientProtocolHandlerTest {

    private static boolean shuttle(EmbeddedChannel from, EmbeddedChannel to) {
        boolean moved = false;
        for (ByteBuf b; (b = from.readOutbound()) != null; ) {
            moved = true;
            if (to.isOpen()) {
                to.writeInbound(b);
            } else {
                b.release();
            }
        }
        return moved;
    }

    private static void exchange(EmbeddedChannel a, EmbeddedChannel b) {
        while (shuttle(a, b) | shuttle(b, a)) {
            // until both are quiet
        }
    }

    /** Keeps the handshake failure, which the test reads from the future, from the channel's tail. */
    private static final class Swallow implements ChannelHandler {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            assertInstanceOf(WebSocketHandshakeException.class, cause);
        }
    }

    private static WebSocketClientProtocolHandler client(String uri, List<String> subprotocols) {
        return new WebSocketClientProtocolHandler(new WebSocketClientHandshaker(URI.create(uri), subprotocols,
                new HttpHeaders(), null, WebSocketExtensionNegotiator.NONE), 65536, 65536, Duration.ofSeconds(5),
                Duration.ofSeconds(5));
    }

    @Test
    void handshakesAndExchangesFramesBothWays() {
        WebSocketServerProtocolHandlerTest.App serverApp = new WebSocketServerProtocolHandlerTest.App();
        WebSocketServerProtocolHandlerTest.App clientApp = new WebSocketServerProtocolHandlerTest.App();
        EmbeddedChannel server = WebSocketServerProtocolHandlerTest.server(
                WebSocketServerProtocolHandler.builder("/chat").subprotocols("v2"), serverApp);
        WebSocketClientProtocolHandler handler = client("ws://example.com:8080/chat?room=1", List.of("v1", "v2"));
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(), handler, clientApp);
        exchange(client, server);
        assertTrue(handler.handshakeFuture().isSuccess());
        assertEquals(List.of("complete /chat v2"), clientApp.seen);
        client.writeAndFlush(new TextWebSocketFrame("from client"));
        server.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer("from server".getBytes(StandardCharsets.UTF_8))));
        exchange(client, server);
        assertEquals(List.of("complete /chat?room=1 v2", "TextWebSocketFrame:from client"), serverApp.seen);
        assertEquals(List.of("complete /chat v2", "BinaryWebSocketFrame:from server"), clientApp.seen);
        client.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.NORMAL_CLOSURE, "done"));
        exchange(client, server);
        assertFalse(server.isOpen());
        assertFalse(client.isOpen());
        assertEquals("close 1000 done", serverApp.seen.get(2));
        assertEquals("close 1000 ", clientApp.seen.get(2));
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    @Test
    void failsOnAWrongAcceptHash() {
        WebSocketClientProtocolHandler handler = client("ws://example.com/", List.of());
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(), handler, new Swallow());
        client.releaseOutbound();
        client.writeInbound(Unpooled.copiedBuffer(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1)));
        assertInstanceOf(WebSocketHandshakeException.class, handler.handshakeFuture().cause());
        assertFalse(client.isOpen());
        client.finishAndReleaseAll();
    }

    @Test
    void failsOnARefusal() {
        WebSocketClientProtocolHandler handler = client("ws://example.com/", List.of());
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(), handler, new Swallow());
        client.releaseOutbound();
        client.writeInbound(Unpooled.copiedBuffer(("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1)));
        assertTrue(handler.handshakeFuture().cause().getMessage().contains("403"));
        client.finishAndReleaseAll();
    }

    @Test
    void failsWhenNoAnswerComesInTime() {
        WebSocketClientProtocolHandler handler = client("ws://example.com/", List.of());
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(), handler, new Swallow());
        client.releaseOutbound();
        client.advanceTimeBy(6, TimeUnit.SECONDS);
        client.runScheduledPendingTasks();
        assertInstanceOf(WebSocketHandshakeException.class, handler.handshakeFuture().cause());
        assertFalse(client.isOpen());
        client.finishAndReleaseAll();
    }
}
