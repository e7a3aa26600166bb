package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * A keep-alive client repeats its request head, and the decoder then lets consecutive requests
 * share the parts that repeat (the request line, the field array). Each request must still behave
 * as its own: a change to one is never seen by another, before or after it.
 */
class RepeatedRequestHeadTest {

    private static final String HEAD = "GET /plaintext HTTP/1.1\r\nHost: example.com\r\nAccept: text/plain\r\n\r\n";

    private final EmbeddedChannel channel = new EmbeddedChannel(new HttpRequestDecoder());

    @AfterEach
    void finish() {
        assertFalse(channel.finishAndReleaseAll());
    }

    private List<HttpRequest> decode(String... heads) {
        List<HttpRequest> requests = new ArrayList<>();
        for (String head : heads) {
            channel.writeInbound(Unpooled.copiedBuffer(head, StandardCharsets.US_ASCII));
            Object msg;
            while ((msg = channel.readInbound()) != null) {
                if (msg instanceof HttpRequest request) {
                    requests.add(request);
                }
                ReferenceCountUtil.release(msg);
            }
        }
        return requests;
    }

    @Test
    void aFieldAddedToOneRequestIsNotSeenByTheRequestsAroundIt() {
        List<HttpRequest> r = decode(HEAD, HEAD, HEAD);
        r.get(1).headers().add("X-Added", "1");
        assertEquals("1", r.get(1).headers().get("x-added"));
        assertNull(r.get(0).headers().get("x-added"));
        assertNull(r.get(2).headers().get("x-added"));
        assertEquals(3, r.get(1).headers().size());
        assertEquals(2, r.get(0).headers().size());
        assertEquals(2, r.get(2).headers().size());
    }

    @Test
    void removingOrReplacingAFieldChangesOnlyThatRequest() {
        List<HttpRequest> r = decode(HEAD, HEAD);
        r.get(0).headers().remove(HttpHeaderNames.ACCEPT);
        r.get(1).headers().set(HttpHeaderNames.HOST, "other.example");
        assertNull(r.get(0).headers().get(HttpHeaderNames.ACCEPT));
        assertEquals("example.com", r.get(0).headers().get(HttpHeaderNames.HOST));
        assertEquals("text/plain", r.get(1).headers().get(HttpHeaderNames.ACCEPT));
        assertEquals("other.example", r.get(1).headers().get(HttpHeaderNames.HOST));
    }

    @Test
    void aRequestAfterAChangedOneStillSharesNothingChanged() {
        List<HttpRequest> first = decode(HEAD);
        first.get(0).headers().clear();
        HttpRequest next = decode(HEAD).get(0);
        assertEquals(0, first.get(0).headers().size());
        assertEquals("example.com", next.headers().get(HttpHeaderNames.HOST));
        assertEquals("text/plain", next.headers().get(HttpHeaderNames.ACCEPT));
    }

    @Test
    void aDifferentValueGetsItsOwnFieldsAndLeavesTheOthersAlone() {
        List<HttpRequest> r = decode(HEAD, HEAD.replace("text/plain", "text/html"), HEAD);
        assertEquals("text/plain", r.get(0).headers().get(HttpHeaderNames.ACCEPT));
        assertEquals("text/html", r.get(1).headers().get(HttpHeaderNames.ACCEPT));
        assertEquals("text/plain", r.get(2).headers().get(HttpHeaderNames.ACCEPT));
    }

    @Test
    void changingTheLineOfOneRequestLeavesTheOthersAlone() {
        List<HttpRequest> r = decode(HEAD, HEAD, HEAD);
        r.get(0).setUri("/changed");
        r.get(1).setMethod(HttpMethod.HEAD);
        r.get(2).setProtocolVersion(HttpVersion.HTTP_1_0);
        assertEquals("/changed GET HTTP/1.1", line(r.get(0)));
        assertEquals("/plaintext HEAD HTTP/1.1", line(r.get(1)));
        assertEquals("/plaintext GET HTTP/1.0", line(r.get(2)));
        assertEquals("/plaintext GET HTTP/1.1", line(decode(HEAD).get(0)));
    }

    @Test
    void aRequestLineSetByHandIsCheckedLikeOneMadeByHand() {
        HttpRequest request = decode(HEAD).get(0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> request.setUri("/a b"));
        assertTrue(e.getMessage().startsWith("request target with"), e.getMessage());
        assertThrows(NullPointerException.class, () -> request.setMethod(null));
        assertEquals("/plaintext GET HTTP/1.1", line(request));
    }

    private static String line(HttpRequest request) {
        return request.uri() + ' ' + request.method() + ' ' + request.protocolVersion();
    }
}
