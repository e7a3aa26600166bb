package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpServerCodec;

/**
 * Rill's WebSocket client and server wired back to back over two {@link EmbeddedChannel}s, the
 * server echoing every data frame as it came. What the client receives, and the close statuses
 * each side is sent, are kept for the test to read.
 */
final class DeflatePeers {

    static final URI URI_WS = URI.create("ws://example.com/ws");

    final List<WebSocketFrame> clientFrames = new ArrayList<>();
    /** Statuses of the close frames the client received. */
    final List<Integer> closesToClient = new ArrayList<>();
    /** Statuses of the close frames the server received. */
    final List<Integer> closesToServer = new ArrayList<>();
    final EmbeddedChannel server;
    final EmbeddedChannel client;
    final WebSocketClientProtocolHandler handshake;
    /** Reads from the server, and from the client, whose first frame carried RSV1. */
    int compressedFromServer;
    int compressedFromClient;

    /** The client's default limits; the server's at 1 MiB. */
    DeflatePeers(WebSocketExtensionNegotiator clientSide, WebSocketExtensionNegotiator serverSide) {
        this(WebSocketClientProtocolHandler.of(URI_WS, clientSide),
                WebSocketServerProtocolHandler.builder("/ws").maxPayload(1 << 20, 1 << 20).extensions(serverSide));
    }

    DeflatePeers(WebSocketClientProtocolHandler handshake, WebSocketServerProtocolHandler.Builder server) {
        this.server = new EmbeddedChannel(new HttpServerCodec(), server.build(), new Echo());
        this.handshake = handshake;
        this.client = new EmbeddedChannel(new HttpClientCodec(), handshake, new Collect());
        exchange();
    }

    /** A client handler with these limits, offering what {@code negotiator} offers. */
    static WebSocketClientProtocolHandler client(WebSocketExtensionNegotiator negotiator, int maxFrame, int maxMessage) {
        WebSocketClientHandshaker handshaker = new WebSocketClientHandshaker(URI_WS, List.of(), new HttpHeaders(),
                negotiator.offer(), negotiator);
        return new WebSocketClientProtocolHandler(handshaker, maxFrame, maxMessage, Duration.ofSeconds(10),
                Duration.ofSeconds(10));
    }

    /** Sends text of {@code size} bytes in two fragments and checks that the echo matches. */
    void roundTrip(int size) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) "the quick brown fox ".charAt(i % 20);
        }
        client.writeAndFlush(new TextWebSocketFrame(false, 0, Unpooled.wrappedBuffer(data, 0, size / 2)));
        client.writeAndFlush(new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(data, size / 2, size - size / 2)));
        exchange();
        assertEquals(new String(data, StandardCharsets.UTF_8), new String(takeEcho(), StandardCharsets.UTF_8),
                "echo of " + size + " bytes");
    }

    /** The payloads of every frame the client has received since the last call, joined; the frames are released. */
    byte[] takeEcho() {
        int size = 0;
        for (WebSocketFrame f : clientFrames) {
            size += f.content().readableBytes();
        }
        byte[] joined = new byte[size];
        int at = 0;
        for (WebSocketFrame f : clientFrames) {
            int n = f.content().readableBytes();
            f.content().getBytes(f.content().readerIndex(), joined, at, n);
            at += n;
            f.release();
        }
        clientFrames.clear();
        return joined;
    }

    /** Moves bytes both ways until neither side has anything more to send. */
    void exchange() {
        boolean moved;
        do {
            moved = shuttle(client, server) | shuttle(server, client);
        } while (moved);
    }

    private boolean shuttle(EmbeddedChannel from, EmbeddedChannel to) {
        boolean moved = false;
        for (ByteBuf b; (b = from.readOutbound()) != null; ) {
            moved = true;
            if (b.readableBytes() > 0 && (b.getByte(b.readerIndex()) & 0x40) != 0) {
                if (from == server) {
                    compressedFromServer++;
                } else {
                    compressedFromClient++;
                }
            }
            if (to.isOpen()) {
                to.writeInbound(b);
            } else {
                b.release();
            }
        }
        return moved;
    }

    void close() {
        server.finishAndReleaseAll();
        client.finishAndReleaseAll();
        for (WebSocketFrame f : clientFrames) {
            f.release();
        }
        clientFrames.clear();
    }

    /** Echoes data frames; notes close frames received. */
    private final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof WebSocketCloseReceived close) {
                closesToServer.add(close.status());
            }
        }
    }

    /** Keeps what the client receives; swallows the handshake failure a test reads from the future. */
    private final class Collect implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            clientFrames.add((WebSocketFrame) msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof WebSocketCloseReceived close) {
                closesToClient.add(close.status());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            assertInstanceOf(WebSocketHandshakeException.class, cause);
        }
    }
}
