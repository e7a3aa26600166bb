package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Aggregation: whole messages, bounded bodies, expectations.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpObjectAggregatorTest {

    private static EmbeddedChannel server(int max) {
        return new EmbeddedChannel(new HttpServerCodec(), new HttpObjectAggregator(max));
    }

    @Test
    void aChunkedRequestBecomesOneFullRequestWithALength() {
        EmbeddedChannel ch = server(1024);
        ch.writeInbound(bytes("POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n"));
        FullHttpRequest request = ch.readInbound();
        assertEquals("hello world", request.content().toString(StandardCharsets.US_ASCII));
        assertEquals("11", request.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        assertFalse(request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING));
        assertEquals("1", request.trailingHeaders().get("x-t"));
        request.release();
        assertTrue(ch.isOpen());
        ch.finish();
    }

    @Test
    void l05_anAnnouncedBodyOverTheLimitIs413BeforeItIsRead() {
        EmbeddedChannel ch = server(1024);
        ch.writeInbound(bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000000\r\n\r\nsome of it"));
        assertNull(ch.readInbound());
        String wire = outbound(ch);
        assertTrue(wire.startsWith("HTTP/1.1 413 Content Too Large\r\n"), wire);
        assertFalse(ch.isOpen());
        ch.finish();
    }

    @Test
    void aChunkedBodyGrowingOverTheLimitIs413() {
        EmbeddedChannel ch = server(8);
        ch.writeInbound(bytes("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n5\r\nworld\r\n"));
        assertNull(ch.readInbound());
        assertTrue(outbound(ch).startsWith("HTTP/1.1 413 "));
        assertFalse(ch.isOpen());
        ch.finish();
    }

    @Test
    void s12_expect100ContinueIsAnsweredBeforeTheBodyAndOtherExpectationsAre417() {
        EmbeddedChannel ch = server(1024);
        ch.writeInbound(bytes("PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"));
        assertEquals("HTTP/1.1 100 Continue\r\n\r\n", outbound(ch));
        ch.writeInbound(bytes("ok"));
        FullHttpRequest request = ch.readInbound();
        assertEquals("ok", request.content().toString(StandardCharsets.US_ASCII));
        request.release();
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        outbound(ch);

        ch.writeInbound(bytes("PUT / HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\nok"));
        assertNull(ch.readInbound());
        assertTrue(outbound(ch).startsWith("HTTP/1.1 417 Expectation Failed\r\n"));
        assertFalse(ch.isOpen());
        ch.finish();
    }

    @Test
    void anExpectationOverTheLimitIs413WithoutContinue() {
        EmbeddedChannel ch = server(4);
        ch.writeInbound(bytes("PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"));
        assertTrue(outbound(ch).startsWith("HTTP/1.1 413 "));
        ch.finish();
    }

    @Test
    void aResponseOverTheLimitFails() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec(), new HttpObjectAggregator(4));
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        outbound(ch);
        assertThrows(TooLongHttpContentException.class,
                () -> ch.writeInbound(bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")));
        ch.finishAndReleaseAll();
    }
}
