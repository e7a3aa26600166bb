package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.rill.handler.codec.http.websocketx.WebSocketCloseReceived;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.handler.codec.http2.websocketx.Http2WebSocketClientHandler;
import io.rill.handler.codec.http2.websocketx.Http2WebSocketServerHandler;

/**
 * WebSocket over HTTP/2 (RFC 8441) on a real connection, on every transport: messages larger than
 * the HTTP/2 windows move through flow control, several WebSockets share one connection, the close
 * handshake ends a stream and leaves the connection serving, and a peer that breaks the framing
 * gets close 1002 on its stream only.
 */
abstract class SocketWebSocketOverHttp2Tests extends AbstractSocketTest {

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

    /** Hands every joined message and event to a queue: text as itself, binary as bytes, a reset as itself. */
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
            if (evt instanceof WebSocketCloseReceived || evt instanceof Http2ResetFrame) {
                queue.add(evt);
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

    /** An h2c server (prior knowledge) that allows extended CONNECT and echoes WebSocket frames at /ws. */
    private Channel startEchoServer() {
        WebSocketServerProtocolHandler.Builder ws = WebSocketServerProtocolHandler.builder("/ws").maxPayload(LIMIT, LIMIT);
        return startServer(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forServer().enableConnectProtocol(true).build(),
                        new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                            @Override
                            protected void initChannel(Http2StreamChannel stream) {
                                stream.pipeline().addLast(Http2WebSocketServerHandler.of(ws), new Echo());
                            }
                        }));
            }
        });
    }

    private Channel connectHttp2(Channel server) {
        return connect(server, new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forClient().build(), new Http2MultiplexHandler(null));
            }
        });
    }

    private static Http2StreamChannel openWebSocket(Channel connection, Received received) {
        Http2WebSocketClientHandler handler = new Http2WebSocketClientHandler(new WebSocketClientHandshaker(
                URI.create("ws://localhost/ws"), List.of(), new HttpHeaders(), null, WebSocketExtensionNegotiator.NONE),
                LIMIT, LIMIT, Duration.ofSeconds(10), Duration.ofSeconds(10));
        return await(handler.open(connection, new ChannelInitializer<Http2StreamChannel>() {
            @Override
            protected void initChannel(Http2StreamChannel stream) {
                stream.pipeline().addLast(new WebSocketFrameAggregator(LIMIT), received);
            }
        }));
    }

    /** Ends the connection at once, without waiting for streams a failed test left open. */
    private static void drop(Channel connection) {
        connection.pipeline().firstContext().close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void rillClientAndServerExchangeMessagesOverAStreamAndClose() throws Exception {
        Channel connection = connectHttp2(startEchoServer());
        Received received = new Received();
        Http2StreamChannel ws = openWebSocket(connection, received);
        try {
            ws.writeAndFlush(new TextWebSocketFrame("hello, wörld"));
            assertEquals("hello, wörld", take(received.queue));

            byte[] big = new byte[1 << 20]; // sixteen times the default stream window
            new Random(8441).nextBytes(big);
            ws.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(big)));
            assertArrayEquals(big, (byte[]) take(received.queue));

            ws.write(new TextWebSocketFrame(false, 0, Unpooled.copiedBuffer("frag", StandardCharsets.UTF_8)));
            ws.write(new ContinuationWebSocketFrame(false, 0, Unpooled.copiedBuffer("men", StandardCharsets.UTF_8)));
            ws.writeAndFlush(new ContinuationWebSocketFrame(true, 0, Unpooled.copiedBuffer("ted", StandardCharsets.UTF_8)));
            assertEquals("fragmented", take(received.queue));

            ws.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.NORMAL_CLOSURE, "bye"));
            WebSocketCloseReceived close = (WebSocketCloseReceived) take(received.queue);
            assertEquals(CloseWebSocketFrame.NORMAL_CLOSURE, close.status());
            assertEquals("closed", take(received.queue), "END_STREAM both ways, no reset");
            await(ws.closeFuture());
            assertTrue(connection.isActive(), "the connection outlives its WebSocket");
        } finally {
            drop(connection);
        }
    }

    @Test
    void severalWebSocketsShareOneConnection() throws Exception {
        Channel connection = connectHttp2(startEchoServer());
        try {
            List<Received> receivers = new ArrayList<>();
            List<Http2StreamChannel> streams = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Received received = new Received();
                receivers.add(received);
                streams.add(openWebSocket(connection, received));
            }
            byte[] payload = new byte[200_000]; // more than a window each: the streams take turns
            new Random(7).nextBytes(payload);
            for (Http2StreamChannel ws : streams) {
                ws.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(payload)));
            }
            for (Received received : receivers) {
                assertArrayEquals(payload, (byte[]) take(received.queue));
            }
            for (Http2StreamChannel ws : streams) {
                ws.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.NORMAL_CLOSURE, null));
            }
            for (Http2StreamChannel ws : streams) {
                await(ws.closeFuture());
            }
        } finally {
            drop(connection);
        }
    }

    @Test
    void aPeerThatBreaksTheFramingGets1002OnItsStreamOnly() throws Exception {
        Channel connection = connectHttp2(startEchoServer());
        try {
            Received bad = new Received();
            Received good = new Received();
            Http2StreamChannel broken = openWebSocket(connection, bad);
            Http2StreamChannel fine = openWebSocket(connection, good);
            // raw bytes pass the encoder untouched: an unmasked text frame, which a server must refuse
            broken.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) 0x81, 0x02, 'H', 'i'}));
            WebSocketCloseReceived close = (WebSocketCloseReceived) take(bad.queue);
            assertEquals(CloseWebSocketFrame.PROTOCOL_ERROR, close.status());
            assertEquals("closed", take(bad.queue));

            fine.writeAndFlush(new TextWebSocketFrame("still here"));
            assertEquals("still here", take(good.queue));
        } finally {
            drop(connection);
        }
    }
}
