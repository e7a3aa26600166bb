package io.rill.handler.codec.http2.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http2.Http2StreamChannel;

/**
 * docs/security-cases.md, cases WS-16 and WS-17: attacks on a WebSocket carried by an HTTP/2
 * stream (RFC 8441), over an in-VM connection. WS-13 to WS-15 are at the frame level, in
 * {@code Http2ExtendedConnectTest}.
 */
@Timeout(30)
class Http2WebSocketSecurityCasesTest {

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

    private Http2StreamChannel open(Channel connection) throws Exception {
        return Http2WebSocketClientHandler.of(URI.create("ws://localhost/ws")).open(connection, new ChannelHandler() {
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
        }).get(10, TimeUnit.SECONDS);
    }

    @Test
    void ws_16_aFrameOverTheLimitOnAStreamGets1009AndTheEndOfTheStream() throws Exception {
        Channel connection = peers.start("h2-ws-1009", WebSocketServerProtocolHandler.builder("/ws")
                .maxPayload(1024, 1024), true, true);
        Http2StreamChannel ws = open(connection);
        assertEquals("OPEN /ws", nextClientEvent());
        assertEquals("OPEN /ws", peers.nextServerEvent());

        ws.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[2000])));
        assertEquals("CLOSE 1009", nextClientEvent());
        assertEquals("CLOSED", nextClientEvent(), "END_STREAM both ways: no reset reached the client");
        assertEquals("CLOSED", peers.nextServerEvent(), "the application never saw the frame, nor a reset");
        assertTrue(connection.isActive(), "one stream's violation leaves the connection serving");
    }

    @Test
    void ws_17_aResetInTheMiddleOfAMessageFreesWhatTheServerHeld() throws Exception {
        Channel connection = peers.start("h2-ws-rst", WebSocketServerProtocolHandler.builder("/ws"), true, true);
        Http2StreamChannel ws = open(connection);
        assertEquals("OPEN /ws", peers.nextServerEvent());

        // A first fragment the server passes on, then half of a masked 10,000-byte continuation:
        // the decoder holds that half when the reset comes. Raw bytes pass the encoder untouched.
        ws.writeAndFlush(new TextWebSocketFrame(false, 0, Unpooled.copiedBuffer("part", java.nio.charset.StandardCharsets.UTF_8)));
        ByteBuf half = Unpooled.buffer();
        half.writeByte(0x00).writeByte(0x80 | 126).writeShort(10_000).writeInt(0x01020304).writeZero(5_000);
        ws.writeAndFlush(half);
        assertEquals("TEXT part", peers.nextServerEvent());

        ws.close().sync(); // no close frame: the stream is reset with CANCEL
        assertEquals("RESET CANCEL", peers.nextServerEvent());
        assertEquals("CLOSED", peers.nextServerEvent());
        // The leak detector (PARANOID in every test JVM) fails this test if the held half is not released.
    }
}
