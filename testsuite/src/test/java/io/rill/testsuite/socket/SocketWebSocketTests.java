package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.socket.DuplexChannel;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.rill.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.rill.handler.codec.http.websocketx.WebSocketCloseReceived;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateClientNegotiator;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateServerNegotiator;

/**
 * WebSocket over a real connection on every transport: Rill's client and server exchange text, a
 * 1 MiB binary message and a fragmented one, complete the close handshake; a peer that breaks the
 * framing gets close 1002 and the end of the stream. The same exchange runs with permessage-deflate,
 * with context takeover and with small windows and none, and a compression bomb gets 1009.
 */
abstract class SocketWebSocketTests extends AbstractSocketTest {

    private static final int LIMIT = 2 << 20;

    /** Echoes data frames as they come. */
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Hands every joined message and event to a queue: text as itself, binary as bytes. */
    private static final class Received implements ChannelHandler {
        final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            WebSocketFrame frame = (WebSocketFrame) msg;
            queue.add(frame instanceof TextWebSocketFrame t ? t.text() : ByteBufUtil.getBytes(frame.content()));
            frame.release();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof WebSocketCloseReceived close) {
                queue.add(close);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            queue.add(cause); // shows up as the unexpected message of the next take
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            queue.add("closed");
        }
    }

    private Channel startEchoServer() {
        return startEchoServer(WebSocketExtensionNegotiator.NONE);
    }

    private Channel startEchoServer(WebSocketExtensionNegotiator extensions) {
        return startServer(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), WebSocketServerProtocolHandler.builder("/ws")
                        .maxPayload(LIMIT, LIMIT).extensions(extensions).build(), new Echo());
            }
        });
    }

    @Test
    void rillClientAndServerExchangeMessagesAndClose() throws Exception {
        exchangeMessagesAndClose(WebSocketExtensionNegotiator.NONE, WebSocketExtensionNegotiator.NONE);
    }

    @Test
    void rillClientAndServerExchangeCompressedMessages() throws Exception {
        exchangeMessagesAndClose(PerMessageDeflateServerNegotiator.builder().maxInflatedMessage(LIMIT).build(),
                PerMessageDeflateClientNegotiator.builder().maxInflatedMessage(LIMIT).build());
    }

    @Test
    void rillClientAndServerExchangeCompressedMessagesWithSmallWindowsAndNoContext() throws Exception {
        exchangeMessagesAndClose(PerMessageDeflateServerNegotiator.builder().maxInflatedMessage(LIMIT)
                .serverMaxWindowBits(9).build(), PerMessageDeflateClientNegotiator.builder().maxInflatedMessage(LIMIT)
                .requestServerNoContextTakeover(true).clientNoContextTakeover(true).clientMaxWindowBits(10).build());
    }

    @Test
    void aCompressionBombGets1009() throws Exception {
        Channel server = startEchoServer(PerMessageDeflateServerNegotiator.builder().maxInflatedMessage(64 * 1024).build());
        Received received = new Received();
        WebSocketClientProtocolHandler handshake = clientHandshake(PerMessageDeflateClientNegotiator.standard());
        Channel client = connect(server, new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpClientCodec(), handshake, received);
            }
        });
        await(handshake.handshakeFuture());
        // The client's own compressor turns 1 MiB of zeros into about 1 KiB; the server may not inflate it.
        client.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[1 << 20])));
        WebSocketCloseReceived close = (WebSocketCloseReceived) take(received.queue);
        assertEquals(CloseWebSocketFrame.MESSAGE_TOO_BIG, close.status());
        await(client.closeFuture());
    }

    private static WebSocketClientProtocolHandler clientHandshake(WebSocketExtensionNegotiator extensions) {
        return new WebSocketClientProtocolHandler(new WebSocketClientHandshaker(URI.create("ws://localhost/ws"), List.of(),
                new HttpHeaders(), extensions.offer(), extensions), LIMIT, LIMIT, Duration.ofSeconds(10),
                Duration.ofSeconds(10));
    }

    private void exchangeMessagesAndClose(WebSocketExtensionNegotiator serverSide, WebSocketExtensionNegotiator clientSide)
            throws Exception {
        Channel server = startEchoServer(serverSide);
        Received received = new Received();
        WebSocketClientProtocolHandler handshake = clientHandshake(clientSide);
        Channel client = connect(server, new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpClientCodec(), handshake, new WebSocketFrameAggregator(LIMIT), received);
            }
        });
        await(handshake.handshakeFuture());

        client.writeAndFlush(new TextWebSocketFrame("hello, wörld"));
        assertEquals("hello, wörld", take(received.queue));

        byte[] big = new byte[1 << 20];
        new Random(6455).nextBytes(big);
        client.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(big)));
        assertArrayEquals(big, (byte[]) take(received.queue));

        client.write(new TextWebSocketFrame(false, 0, Unpooled.copiedBuffer("frag", StandardCharsets.UTF_8)));
        client.write(new ContinuationWebSocketFrame(false, 0, Unpooled.copiedBuffer("men", StandardCharsets.UTF_8)));
        client.writeAndFlush(new ContinuationWebSocketFrame(true, 0, Unpooled.copiedBuffer("ted", StandardCharsets.UTF_8)));
        assertEquals("fragmented", take(received.queue));

        client.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.NORMAL_CLOSURE, "bye"));
        WebSocketCloseReceived close = (WebSocketCloseReceived) take(received.queue);
        assertEquals(CloseWebSocketFrame.NORMAL_CLOSURE, close.status());
        await(client.closeFuture());
    }

    @Test
    void aPeerThatBreaksTheFramingGets1002AndTheEndOfTheStream() throws Exception {
        Channel server = startEchoServer();
        ByteCollector received = new ByteCollector();
        Channel client = connect(server, received);
        String upgrade = "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        byte[] request = upgrade.getBytes(StandardCharsets.ISO_8859_1);
        client.write(Unpooled.wrappedBuffer(request));
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) 0x81, 0x02, 'H', 'i'})); // unmasked
        await(client.closeFuture());
        String answer = new String(received.await(received.size()), StandardCharsets.ISO_8859_1);
        assertTrue(answer.startsWith("HTTP/1.1 101 "), answer);
        String hex = ByteBufUtil.hexDump(answer.getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(hex.endsWith("880203ea"), "a close frame with 1002 last: " + hex);
    }

    /**
     * A peer that disappears without a close frame (a FIN after the handshake) is closed, not left
     * half-open: the HTTP codec allows half-closure for its requests, and the WebSocket that replaces
     * it must not inherit that, or every such peer costs a descriptor for good (found by the soak;
     * docs/security-cases.md, case WS-22).
     */
    @Test
    void ws_22_aPeerThatEndsItsStreamWithoutACloseFrameIsClosed() throws Exception {
        Channel server = startEchoServer();
        ByteCollector received = new ByteCollector();
        Channel client = connect(server, received);
        Assumptions.assumeTrue(client instanceof DuplexChannel, transport + " has no half closure");
        String upgrade = "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        await(client.writeAndFlush(Unpooled.wrappedBuffer(upgrade.getBytes(StandardCharsets.ISO_8859_1))));
        assertEquals("HTTP/1.1 101", new String(received.await(12), 0, 12, StandardCharsets.ISO_8859_1));
        await(((DuplexChannel) client).shutdownOutput());
        await(client.closeFuture()); // the server's close reaches the client as the end of its stream
    }
}
