package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpResponseStatus;

/** The builder's getters, which give its settings to a handler for another transport (RFC 8441). */
class WebSocketServerProtocolHandlerBuilderTest {

    @Test
    void pathMatcherKeepsThePathSettingsItWasMadeWith() {
        WebSocketServerProtocolHandler.Builder builder = WebSocketServerProtocolHandler.builder("/ws");
        Predicate<String> exact = builder.pathMatcher();
        builder.pathPrefix(true);
        Predicate<String> below = builder.pathMatcher();

        assertTrue(exact.test("/ws"));
        assertTrue(exact.test("/ws?room=1"), "the query is not part of the path");
        assertFalse(exact.test("/ws/room"), "made before pathPrefix(true)");
        assertTrue(below.test("/ws/room"));
        assertFalse(below.test("/wsroom"), "below the path means after a slash");
    }

    @Test
    void decoderConfigHasTheLimitsAndExpectsMaskedFrames() {
        WebSocketDecoderConfig config = WebSocketServerProtocolHandler.builder("/ws").maxPayload(1000, 5000)
                .decoderConfig();
        assertEquals(new WebSocketDecoderConfig(1000, 5000, true, 0), config);
    }

    @Test
    void closeTimeoutIsTheConfiguredOne() {
        WebSocketServerProtocolHandler.Builder builder = WebSocketServerProtocolHandler.builder("/ws");
        assertEquals(Duration.ofSeconds(10), builder.closeTimeout());
        assertEquals(Duration.ofMillis(250), builder.closeTimeout(Duration.ofMillis(250)).closeTimeout());
    }

    @Test
    void newHandshakerChoosesAmongTheSubprotocolsAndAppliesTheOriginCheck() {
        WebSocketServerHandshaker handshaker = WebSocketServerProtocolHandler.builder("/ws").subprotocols("chat")
                .originCheck("https://good.example"::equals).newHandshaker();

        WebSocketServerHandshaker.Outcome good = handshaker.handshakeExtendedConnect(new HttpHeaders()
                .set("sec-websocket-version", "13").set("sec-websocket-protocol", "superchat, chat")
                .set("origin", "https://good.example"));
        good.response().release();
        assertTrue(good.accepted());
        assertEquals("chat", good.subprotocol());

        WebSocketServerHandshaker.Outcome evil = handshaker.handshakeExtendedConnect(new HttpHeaders()
                .set("sec-websocket-version", "13").set("origin", "https://evil.example"));
        evil.response().release();
        assertFalse(evil.accepted());
        assertEquals(403, evil.response().status().code());
    }

    @Test
    void refuseAnswersWithTheStatusAndTheReasonAsText() {
        WebSocketServerHandshaker.Outcome outcome = WebSocketServerHandshaker.refuse(
                HttpResponseStatus.BAD_REQUEST, "the stream ended");
        try {
            assertFalse(outcome.accepted());
            assertEquals("the stream ended", outcome.reason());
            assertEquals(400, outcome.response().status().code());
            assertEquals("Bad Request: the stream ended\n",
                    outcome.response().content().toString(StandardCharsets.UTF_8));
        } finally {
            outcome.response().release();
        }
    }
}
