package io.rill.handler.codec.http2.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.handler.codec.http2.Http2StreamChannelBootstrap;

/** WebSocket over HTTP/2 (RFC 8441): Rill's client against Rill's server on an in-VM connection. */
@Timeout(30)
class Http2WebSocketTest {

    private final Http2WebSocketPeers peers = new Http2WebSocketPeers();
    private final BlockingQueue<String> clientEvents = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() throws Exception {
        peers.close();
    }

    private String nextClientEvent() throws InterruptedException {
        String event = clientEvents.poll(10, TimeUnit.SECONDS);
        if (event == null) {
            throw new AssertionError("no client event within 10 s");
        }
        return event;
    }

    /** The client's application: records what it reads and the events it gets. */
    private final ChannelHandler clientRecorder = new ClientRecorder();

    @ChannelHandler.Sharable
    private final class ClientRecorder implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            clientEvents.add(Http2WebSocketPeers.describe(msg));
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            clientEvents.add(Http2WebSocketPeers.describe(evt));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            clientEvents.add("CLOSED");
        }
    }

    private static Http2WebSocketClientHandler client(String uri, String... subprotocols) {
        return new Http2WebSocketClientHandler(new WebSocketClientHandshaker(URI.create(uri), List.of(subprotocols),
                new HttpHeaders(), null, WebSocketExtensionNegotiator.NONE), 65_536, 65_536,
                Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Test
    void textAndBinaryEchoThenACleanCloseEndsBothSidesWithoutAReset() throws Exception {
        Channel connection = peers.start("h2-ws-echo", WebSocketServerProtocolHandler.builder("/ws")
                .subprotocols("chat"), true, true);
        Http2StreamChannel ws = client("ws://localhost/ws", "superchat", "chat").open(connection, clientRecorder)
                .get(10, TimeUnit.SECONDS);
        assertEquals("OPEN /ws chat", nextClientEvent());
        assertEquals("OPEN /ws chat", peers.nextServerEvent());

        ws.writeAndFlush(new TextWebSocketFrame("héllo"));
        ws.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[70_000 / 2])));
        assertEquals("TEXT héllo", nextClientEvent());
        assertEquals("BINARY 35000", nextClientEvent());

        ws.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.NORMAL_CLOSURE, "bye"));
        assertEquals("CLOSE 1000", nextClientEvent());
        assertEquals("CLOSED", nextClientEvent());
        assertTrue(ws.closeFuture().await(5, TimeUnit.SECONDS));
        assertEquals(List.of("TEXT héllo", "BINARY 35000", "CLOSE 1000", "CLOSED"),
                List.of(peers.nextServerEvent(), peers.nextServerEvent(), peers.nextServerEvent(), peers.nextServerEvent()),
                "both ends saw END_STREAM, not RST_STREAM");
        assertTrue(connection.isActive(), "the connection goes on");
    }

    @Test
    void manyWebSocketsShareOneConnection() throws Exception {
        Channel connection = peers.start("h2-ws-many", WebSocketServerProtocolHandler.builder("/ws"), true, true);
        Http2StreamChannel[] streams = new Http2StreamChannel[5];
        for (int i = 0; i < streams.length; i++) {
            streams[i] = client("ws://localhost/ws", new String[0]).open(connection, clientRecorder).get(10, TimeUnit.SECONDS);
        }
        for (int i = 0; i < streams.length; i++) {
            streams[i].writeAndFlush(new TextWebSocketFrame("stream " + i));
        }
        long texts = 0;
        for (int i = 0; i < streams.length * 2; i++) {
            texts += nextClientEvent().startsWith("TEXT stream ") ? 1 : 0;
        }
        assertEquals(streams.length, texts);
    }

    @Test
    void aServerWithoutTheSettingFailsTheOpenWithAClearReason() throws Exception {
        Channel connection = peers.start("h2-ws-nosetting", WebSocketServerProtocolHandler.builder("/ws"), false, true);
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> client("ws://localhost/ws").open(connection, clientRecorder).get(10, TimeUnit.SECONDS));
        assertInstanceOf(WebSocketHandshakeException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("SETTINGS_ENABLE_CONNECT_PROTOCOL"), e.getCause().getMessage());
    }

    @Test
    void anAbortResetsTheStreamWithCancel() throws Exception {
        Channel connection = peers.start("h2-ws-abort", WebSocketServerProtocolHandler.builder("/ws"), true, true);
        Http2StreamChannel ws = client("ws://localhost/ws").open(connection, clientRecorder).get(10, TimeUnit.SECONDS);
        assertEquals("OPEN /ws", peers.nextServerEvent());
        ws.close().sync(); // no close frame: an abort
        assertEquals("RESET CANCEL", peers.nextServerEvent());
        assertEquals("CLOSED", peers.nextServerEvent());
    }

    @Test
    void theServerRefusesAnotherVersionWith400AndTheVersionItSpeaks() throws Exception {
        Channel connection = peers.start("h2-ws-version", WebSocketServerProtocolHandler.builder("/ws"), true, true);
        CompletableFuture<Http2Headers> answer = new CompletableFuture<>();
        Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection).handler(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Http2HeadersFrame h) {
                    answer.complete(h.headers());
                }
                ReferenceCountUtil.release(msg);
            }
        }).open().get(5, TimeUnit.SECONDS);
        Http2Headers request = Http2WebSocketClientHandler.extendedConnect(new WebSocketClientHandshaker(
                URI.create("ws://localhost/ws"), List.of(), new HttpHeaders(), null, WebSocketExtensionNegotiator.NONE))
                .set("sec-websocket-version", "8");
        stream.writeAndFlush(new Http2HeadersFrame(0, request, false));
        Http2Headers response = answer.get(10, TimeUnit.SECONDS);
        assertEquals("400", response.status().toString());
        assertEquals("13", response.get("sec-websocket-version").toString());
    }

    @Test
    void anOriginTheServerRefusesGets403() throws Exception {
        Channel connection = peers.start("h2-ws-origin", WebSocketServerProtocolHandler.builder("/ws")
                .originCheck("https://good.example"::equals), true, true);
        HttpHeaders origin = new HttpHeaders().set("Origin", "https://evil.example");
        Http2WebSocketClientHandler handler = new Http2WebSocketClientHandler(new WebSocketClientHandshaker(
                URI.create("ws://localhost/ws"), List.of(), origin, null, WebSocketExtensionNegotiator.NONE),
                65_536, 65_536, Duration.ofSeconds(5), Duration.ofSeconds(5));
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> handler.open(connection, clientRecorder).get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains(":status 403"), e.getCause().getMessage());
    }

    @Test
    void aStreamThatIsNotAWebSocketPassesOnUntouched() throws Exception {
        Channel connection = peers.start("h2-ws-other", WebSocketServerProtocolHandler.builder("/ws"), true, true);
        Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection).handler(new ChannelHandler() {
        }).open().get(5, TimeUnit.SECONDS);
        stream.writeAndFlush(new Http2HeadersFrame(0, new Http2Headers().method("GET").scheme("http")
                .authority("localhost").path("/ws"), true));
        assertEquals("Http2HeadersFrame", peers.nextServerEvent());
    }

    @Test
    void aServerThatDoesNotReadMakesTheClientsStreamUnwritable() throws Exception {
        Channel connection = peers.start("h2-ws-slow", WebSocketServerProtocolHandler.builder("/ws"), true, false);
        Http2StreamChannel ws = client("ws://localhost/ws").open(connection, clientRecorder).get(10, TimeUnit.SECONDS);
        Http2StreamChannel onServer = peers.serverStreams.poll(10, TimeUnit.SECONDS);
        onServer.eventLoop().submit(() -> onServer.config().setAutoRead(false)).sync();
        CompletableFuture<Integer> unwritableAfter = new CompletableFuture<>();
        ws.eventLoop().execute(() -> {
            int sent = 0;
            while (ws.isWritable() && sent < 1000) {
                ws.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[16_384])));
                sent++;
            }
            unwritableAfter.complete(sent);
        });
        int sent = unwritableAfter.get(10, TimeUnit.SECONDS);
        assertTrue(sent < 1000, "HTTP/2 flow control stops the writer after " + sent + " frames");
        assertFalse(ws.isWritable());
    }
}
