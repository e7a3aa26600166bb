package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateClientNegotiator;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateServerNegotiator;

/**
 * Rill's client and server with permessage-deflate, through their protocol handlers: every
 * combination of the four parameters negotiates and carries messages both ways, compressed on
 * the wire; a server answer the client did not ask for fails the handshake.
 */
class PerMessageDeflateConnectionTest {

    @Test
    void everyParameterCombinationCarriesMessagesBothWays() {
        int combinations = 0;
        for (int bits : new int[] {8, 9, 12, 15}) {
            for (int flags = 0; flags < 4; flags++) {
                PerMessageDeflateClientNegotiator client = PerMessageDeflateClientNegotiator.builder()
                        .requestServerNoContextTakeover((flags & 1) != 0).clientNoContextTakeover((flags & 2) != 0)
                        .serverMaxWindowBits(bits).clientMaxWindowBits(23 - bits).build();
                Pair pair = new Pair(client, PerMessageDeflateServerNegotiator.acceptAll());
                assertTrue(pair.handshake.handshakeFuture().isSuccess(), client.offer());
                for (int size : new int[] {0, 5, 1000, 50_000}) {
                    pair.roundTrip(size);
                }
                assertTrue(pair.compressedOnTheWire > 0, "the server's frames carry RSV1");
                combinations++;
                pair.close();
            }
        }
        assertEquals(16, combinations);
    }

    @Test
    void theServerFindsTheOfferBehindAQuotedComma() {
        EmbeddedChannel server = WebSocketServerProtocolHandlerTest.server(WebSocketServerProtocolHandler.builder("/ws")
                .extensions(PerMessageDeflateServerNegotiator.acceptAll()), new WebSocketServerProtocolHandlerTest.App());
        WebSocketServerProtocolHandlerTest.send(server, WebSocketServerProtocolHandlerTest.UPGRADE
                + "Sec-WebSocket-Extensions: x-foo; list=\"a,b\", permessage-deflate; client_max_window_bits=\"10\"\r\n\r\n");
        String answer = WebSocketServerProtocolHandlerTest.written(server);
        assertTrue(answer.contains("sec-websocket-extensions: permessage-deflate; client_max_window_bits=10\r\n"), answer);
        server.finishAndReleaseAll();
    }

    @Test
    void theClientRefusesAnAnswerItDidNotOffer() {
        WebSocketExtensionNegotiator lying = elements -> List.of(new WebSocketExtension() {
            @Override
            public int rsv() {
                return WebSocketFrame.RSV1;
            }

            @Override
            public String responseElement() {
                return "permessage-deflate; client_max_window_bits=12";
            }

            @Override
            public ChannelHandler newDecoder() {
                return new ChannelHandler() { };
            }

            @Override
            public ChannelHandler newEncoder() {
                return new ChannelHandler() { };
            }
        });
        Pair pair = new Pair(PerMessageDeflateClientNegotiator.builder().clientMaxWindowBits(10).build(), lying);
        assertInstanceOf(WebSocketHandshakeException.class, pair.handshake.handshakeFuture().cause());
        assertFalse(pair.client.isOpen());
        pair.close();
    }

    /** A client and a server wired back to back. */
    private static final class Pair {
        final List<WebSocketFrame> clientFrames = new ArrayList<>();
        final EmbeddedChannel server;
        final EmbeddedChannel client;
        final WebSocketClientProtocolHandler handshake;
        int compressedOnTheWire;

        Pair(WebSocketExtensionNegotiator clientSide, WebSocketExtensionNegotiator serverSide) {
            server = new EmbeddedChannel(new io.rill.handler.codec.http.HttpServerCodec(),
                    WebSocketServerProtocolHandler.builder("/ws").maxPayload(1 << 20, 1 << 20).extensions(serverSide).build(),
                    new Echo());
            handshake = WebSocketClientProtocolHandler.of(URI.create("ws://example.com/ws"), clientSide);
            client = new EmbeddedChannel(new HttpClientCodec(), handshake, new Collect());
            exchange();
        }

        void roundTrip(int size) {
            byte[] data = new byte[size];
            for (int i = 0; i < size; i++) {
                data[i] = (byte) "the quick brown fox ".charAt(i % 20);
            }
            client.writeAndFlush(new TextWebSocketFrame(false, 0, Unpooled.wrappedBuffer(data, 0, size / 2)));
            client.writeAndFlush(new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(data, size / 2, size - size / 2)));
            exchange();
            StringBuilder text = new StringBuilder();
            for (WebSocketFrame f : clientFrames) {
                text.append(f.content().toString(StandardCharsets.UTF_8));
                f.release();
            }
            clientFrames.clear();
            assertEquals(new String(data, StandardCharsets.UTF_8), text.toString(), "echo of " + size + " bytes");
        }

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
                if (from == server && b.readableBytes() > 0 && (b.getByte(b.readerIndex()) & 0x40) != 0) {
                    compressedOnTheWire++;
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
        }

        /** Echoes data frames. */
        private static final class Echo implements ChannelHandler {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.writeAndFlush(msg);
            }
        }

        /** Keeps what the client receives; swallows the handshake failure the test reads from the future. */
        private final class Collect implements ChannelHandler {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                clientFrames.add((WebSocketFrame) msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                assertInstanceOf(WebSocketHandshakeException.class, cause);
            }
        }
    }
}
