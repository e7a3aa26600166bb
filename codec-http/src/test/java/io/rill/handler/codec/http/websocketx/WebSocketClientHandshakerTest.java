package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;

/** What the client handshaker offers, as both HTTP versions read it, and its check of an RFC 8441 answer. */
class WebSocketClientHandshakerTest {

    private static WebSocketClientHandshaker handshaker(String uri, String... subprotocols) {
        return new WebSocketClientHandshaker(URI.create(uri), List.of(subprotocols),
                new HttpHeaders().set("Origin", "https://example.com"), "permessage-deflate",
                WebSocketExtensionNegotiator.NONE);
    }

    @Test
    void requestTargetIsThePathOrSlashAndTheQuery() {
        assertEquals("/", handshaker("ws://example.com").requestTarget());
        assertEquals("/chat?room=1", handshaker("ws://example.com/chat?room=1").requestTarget());
    }

    @Test
    void authorityLeavesOutTheSchemesDefaultPort() {
        assertEquals("example.com", handshaker("ws://example.com:80/").authority());
        assertEquals("example.com", handshaker("wss://example.com:443/").authority());
        assertEquals("example.com:443", handshaker("ws://example.com:443/").authority());
        assertEquals("[::1]:8080", handshaker("ws://[::1]:8080/").authority());
    }

    @Test
    void theHttp11RequestUsesTheSameTargetHostAndOffers() {
        WebSocketClientHandshaker handshaker = handshaker("ws://example.com:8080/chat?room=1", "chat", "superchat");
        FullHttpRequest request = handshaker.newRequest();
        try {
            assertEquals(handshaker.requestTarget(), request.uri());
            assertEquals(handshaker.authority(), request.headers().get(HttpHeaderNames.HOST));
            assertEquals("chat, superchat", request.headers().get(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL));
            assertEquals(handshaker.extensionOffer(), request.headers().get(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS));
            assertEquals("https://example.com", request.headers().get(HttpHeaderNames.ORIGIN));
            assertEquals(List.of("chat", "superchat"), handshaker.subprotocols());
            assertEquals("https://example.com", handshaker.extraHeaders().get("origin"));
        } finally {
            request.release();
        }
    }

    @Test
    void checkExtendedConnectTakesAnOfferedSubprotocolAndNoUnofferedExtension() {
        WebSocketClientHandshaker handshaker = handshaker("wss://example.com/chat", "chat");
        assertEquals("chat", handshaker.checkExtendedConnect(new HttpHeaders().set("sec-websocket-protocol", "chat"))
                .subprotocol());
        assertNull(handshaker.checkExtendedConnect(new HttpHeaders()).subprotocol());

        WebSocketHandshakeException other = assertThrows(WebSocketHandshakeException.class,
                () -> handshaker.checkExtendedConnect(new HttpHeaders().set("sec-websocket-protocol", "superchat")));
        assertTrue(other.getMessage().contains("superchat"), other.getMessage());
        WebSocketHandshakeException extension = assertThrows(WebSocketHandshakeException.class,
                () -> handshaker.checkExtendedConnect(new HttpHeaders().set("sec-websocket-extensions", "x-unknown")));
        assertTrue(extension.getMessage().contains("x-unknown"), extension.getMessage());
    }
}
