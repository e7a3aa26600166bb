package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/** One response of read-only headers and a constant body, sent any number of times. */
class SharedResponseTest {

    private static final String EXPECTED = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n"
            + "server: Rill\r\n\r\nhello";

    private static HttpHeaders fields() {
        return new HttpHeaders().add(HttpHeaderNames.CONTENT_TYPE, "text/plain").add(HttpHeaderNames.CONTENT_LENGTH, "5")
                .add(HttpHeaderNames.SERVER, "Rill");
    }

    private static String answerOnce(FullHttpResponse response, String method) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec());
        ch.writeInbound(bytes(method + " / HTTP/1.1\r\nHost: a\r\n\r\n"));
        ReferenceCountUtil.release(ch.readInbound());
        ReferenceCountUtil.release(ch.readInbound());
        ch.writeOutbound(response);
        String out = outbound(ch);
        ch.finish();
        return out;
    }

    @Test
    void readOnlyHeadersAreACopyThatRefusesChangesAndEncodesLikeTheOriginal() {
        HttpHeaders original = fields();
        HttpHeaders readOnly = original.toReadOnly();
        original.add("x-later", "1");
        assertEquals(3, readOnly.size(), "a copy: later changes to the original do not show");
        assertTrue(readOnly.isReadOnly());
        assertFalse(original.isReadOnly());
        assertSame(readOnly, readOnly.toReadOnly());
        assertThrows(UnsupportedOperationException.class, () -> readOnly.set(HttpHeaderNames.CONNECTION, "close"));
        assertThrows(UnsupportedOperationException.class, () -> readOnly.remove(HttpHeaderNames.SERVER));
        assertThrows(UnsupportedOperationException.class, readOnly::clear);
        assertEquals("text/plain", readOnly.get(HttpHeaderNames.CONTENT_TYPE));
        assertTrue(HttpHeaders.EMPTY.isReadOnly());
    }

    @Test
    void oneResponseIsSentAgainAndAgainOnManyConnectionsUnchanged() {
        FullHttpResponse shared = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.constantBuffer("hello".getBytes(StandardCharsets.US_ASCII)), fields().toReadOnly(), HttpHeaders.EMPTY);
        for (int i = 0; i < 3; i++) {
            assertEquals(EXPECTED, answerOnce(shared, "GET"));
        }
        assertEquals(EXPECTED.substring(0, EXPECTED.length() - 5), answerOnce(shared, "HEAD"), "no body for HEAD");
        assertEquals(1, shared.refCnt(), "releasing it after each write changed nothing");
        assertEquals(5, shared.content().readableBytes());
    }

    @Test
    void theSameResponseWithMutableHeadersEncodesToTheSameBytes() {
        FullHttpResponse fresh = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                bytes("hello"), fields(), HttpHeaders.EMPTY);
        assertEquals(EXPECTED, answerOnce(fresh, "GET"));
    }

    @Test
    void aHandlerThatWouldChangeASharedResponseFailsLoudly() {
        FullHttpResponse shared = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.constantBuffer("hello".getBytes(StandardCharsets.US_ASCII)), fields().toReadOnly(), HttpHeaders.EMPTY);
        assertThrows(UnsupportedOperationException.class, () -> HttpUtil.setKeepAlive(shared, false));
        assertEquals(3, shared.headers().size());
    }
}
