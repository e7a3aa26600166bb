package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.HpackTestSupport.headers;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Whole-section rules of RFC 9113 §8.3 and §8.5 (and RFC 8441's extended CONNECT). */
class Http2HeaderChecksTest {

    private static void malformed(Executable check, String messagePart) {
        Http2Exception e = assertThrows(Http2Exception.class, check);
        assertEquals(Http2Error.PROTOCOL_ERROR, e.error());
        assertEquals(5, e.streamId());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }

    private static Executable request(String... fields) {
        return () -> Http2HeaderChecks.validateRequest(5, headers(fields));
    }

    private static Executable response(String... fields) {
        return () -> Http2HeaderChecks.validateResponse(5, headers(fields));
    }

    @Test
    void aCompleteRequestIsValid() {
        assertDoesNotThrow(request(":method", "GET", ":scheme", "https", ":path", "/", ":authority", "a.example"));
        assertDoesNotThrow(request(":method", "OPTIONS", ":scheme", "https", ":path", "*"));
    }

    @Test
    void requestWithoutMethodIsMalformed() {
        malformed(request(":scheme", "https", ":path", "/"), "request without ':method'");
    }

    @Test
    void requestWithoutSchemeIsMalformed() {
        malformed(request(":method", "GET", ":path", "/"), "request without ':scheme'");
    }

    @Test
    void requestWithoutPathIsMalformed() {
        malformed(request(":method", "GET", ":scheme", "https"), "request without ':path'");
    }

    @Test
    void requestWithAnEmptyPathIsMalformed() {
        malformed(request(":method", "GET", ":scheme", "https", ":path", ""), "empty ':path'");
    }

    @Test
    void requestWithStatusIsMalformed() {
        malformed(request(":method", "GET", ":scheme", "https", ":path", "/", ":status", "200"),
                "request with ':status'");
    }

    @Test
    void requestWithADuplicatedPseudoHeaderIsMalformed() {
        malformed(request(":method", "GET", ":method", "GET", ":scheme", "https", ":path", "/"),
                "duplicated pseudo-header field ':method'");
    }

    @Test
    void requestWithAnUnknownPseudoHeaderIsMalformed() {
        malformed(request(":method", "GET", ":scheme", "https", ":path", "/", ":foo", "x"),
                "unknown pseudo-header field ':foo'");
    }

    @Test
    void connectHasMethodAndAuthorityOnly() {
        assertDoesNotThrow(request(":method", "CONNECT", ":authority", "proxy.example:443"));
        malformed(request(":method", "CONNECT", ":authority", "p:443", ":path", "/"),
                "CONNECT request must have ':method' and ':authority' only, has ':method', ':authority', ':path'");
        malformed(request(":method", "CONNECT"), "CONNECT request must have ':method' and ':authority' only");
    }

    @Test
    void extendedConnectHasSchemePathAuthorityAndProtocol() {
        assertDoesNotThrow(request(":method", "CONNECT", ":protocol", "websocket", ":scheme", "https",
                ":path", "/chat", ":authority", "server.example"));
        malformed(request(":method", "CONNECT", ":protocol", "websocket", ":scheme", "https", ":path", "/chat"),
                "request without ':authority'");
    }

    @Test
    void protocolOutsideConnectIsMalformed() {
        malformed(request(":method", "GET", ":protocol", "websocket", ":scheme", "https", ":path", "/"),
                "':protocol' in a 'GET' request");
    }

    @Test
    void aResponseHasAThreeDigitStatusOnly() {
        assertDoesNotThrow(response(":status", "204", "server", "rill"));
        malformed(response("server", "rill"), "response without ':status'");
        malformed(response(":status", "20"), "':status' is not three digits: '20'");
        malformed(response(":status", "2x0"), "':status' is not three digits: '2x0'");
        malformed(response(":status", "200", ":path", "/"), "response with request pseudo-header fields ':path'");
    }

    @Test
    void trailersHaveNoPseudoHeader() {
        assertDoesNotThrow(() -> Http2HeaderChecks.validateTrailers(5, headers("grpc-status", "0")));
        malformed(() -> Http2HeaderChecks.validateTrailers(5, headers("grpc-status", "0", ":status", "200")),
                "pseudo-header field ':status' in trailers");
    }
}
