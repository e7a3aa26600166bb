package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
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
                DeflatePeers pair = new DeflatePeers(client, PerMessageDeflateServerNegotiator.acceptAll());
                assertTrue(pair.handshake.handshakeFuture().isSuccess(), client.offer());
                for (int size : new int[] {0, 5, 1000, 50_000}) {
                    pair.roundTrip(size);
                }
                assertTrue(pair.compressedFromServer > 0, "the server's frames carry RSV1");
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
        DeflatePeers pair = new DeflatePeers(PerMessageDeflateClientNegotiator.builder().clientMaxWindowBits(10).build(), lying);
        assertInstanceOf(WebSocketHandshakeException.class, pair.handshake.handshakeFuture().cause());
        assertFalse(pair.client.isOpen());
        pair.close();
    }
}
