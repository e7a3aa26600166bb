package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * The server codec: rejected requests are answered and closed, HEAD has no body, pipelining is
 * bounded.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpServerCodecTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "GET / HTTP/1.1\\r\\nTransfer-Encoding : chunked\\r\\nHost: a\\r\\n\\r\\n | 400 Bad Request",
        "GET /LONG HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 414 URI Too Long",
        "GET / HTTP/1.1\\r\\nHost: a\\r\\nX: BIG\\r\\n\\r\\n | 431 Request Header Fields Too Large",
        "POST / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: gzip, chunked\\r\\n\\r\\n | 501 Not Implemented",
        "GET / HTTP/3.0\\r\\nHost: a\\r\\n\\r\\n | 505 HTTP Version Not Supported"})
    void aRejectedRequestIsAnsweredWithItsStatusAndClosedAndNeverReachesTheApplication(String request, String status) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec());
        String input = request.replace("\\r\\n", "\r\n").replace("LONG", "a".repeat(5000)).replace("BIG", "b".repeat(9000));
        ch.writeInbound(bytes(input + "GET /next HTTP/1.1\r\nHost: a\r\n\r\n"));
        assertNull(ch.readInbound(), "nothing reaches the application");
        String response = outbound(ch);
        assertTrue(response.startsWith("HTTP/1.1 " + status + "\r\n"), response);
        assertTrue(response.contains("\r\nConnection: close\r\n"), response);
        assertFalse(ch.isOpen(), "closed after the answer");
        ch.finish();
    }

    @Test
    void aBodyThatBreaksMidwayEndsTheMessageFailedAndIsAnsweredAndClosed() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec());
        ch.writeInbound(bytes("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX"));
        HttpRequest head = ch.readInbound();
        assertTrue(head.decoderResult().isSuccess());
        ReferenceCountUtil.release(ch.readInbound()); // "hello"
        LastHttpContent end = ch.readInbound();
        assertTrue(end.decoderResult().isFailure());
        assertTrue(outbound(ch).startsWith("HTTP/1.1 400 Bad Request\r\n"));
        assertFalse(ch.isOpen());
        ch.finish();
    }

    @Test
    void responsesToHeadHaveNoBodyWhateverTheirHeadersSay() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec());
        ch.writeInbound(bytes("HEAD / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"));
        for (int i = 0; i < 4; i++) {
            ReferenceCountUtil.release(ch.readInbound());
        }
        for (int i = 0; i < 2; i++) {
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, bytes("hello"));
            r.headers().set(HttpHeaderNames.CONTENT_LENGTH, "5");
            ch.writeOutbound(r);
        }
        assertEquals("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello", outbound(ch));
        ch.finish();
    }

    @Test
    void h1_17_l08_pipelinedRequestsBeyondTheBoundStopReadingUntilAnswered() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(HttpDecoderConfig.DEFAULT, 16));
        ch.writeInbound(bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n".repeat(16)));
        assertFalse(ch.config().isAutoRead(), "16 unanswered requests: reading stops");
        int requests = 0;
        for (Object msg; (msg = ch.readInbound()) != null; ) {
            if (msg instanceof HttpRequest) {
                requests++;
            }
            ReferenceCountUtil.release(msg);
        }
        assertEquals(16, requests);
        for (int i = 0; i < 8; i++) {
            ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        }
        assertTrue(ch.config().isAutoRead(), "half answered: reading resumes");
        outbound(ch);
        ch.finish();
    }

    @Test
    void writesAfterARejectionFailAndAreReleased() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec());
        ch.writeInbound(bytes("BAD REQUEST LINE HERE\r\n\r\n"));
        outbound(ch);
        FullHttpResponse late = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, bytes("late"));
        assertFalse(ch.writeAndFlush(late).isSuccess());
        assertEquals(0, late.refCnt());
        ch.finish();
    }

    @Test
    void aKeepAliveHandlerClosesAfterTheResponseToAClosingRequest() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerKeepAliveHandler());
        ch.writeInbound(bytes("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                + "GET /3 HTTP/1.1\r\nHost: a\r\n\r\n"));
        int requests = 0;
        for (Object msg; (msg = ch.readInbound()) != null; ) {
            requests += msg instanceof HttpRequest ? 1 : 0;
            ReferenceCountUtil.release(msg);
        }
        assertEquals(2, requests, "nothing after the closing request");
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        assertTrue(ch.isOpen());
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        String wire = outbound(ch);
        assertTrue(wire.endsWith("HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"), wire);
        assertFalse(ch.isOpen());
        ch.finish();
    }

    @Test
    void theBodyOfARequestAfterAClosingOneIsDroppedWithIt() {
        // Found by HttpDifferentialTest (testsuite/): the dropped request's content reached the application.
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerKeepAliveHandler());
        ch.writeInbound(bytes("GET /1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                + "POST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
                + "POST /3 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n"));
        assertInstanceOf(HttpRequest.class, ch.readInbound());
        ReferenceCountUtil.release(assertInstanceOf(LastHttpContent.class, ch.readInbound()));
        assertNull(ch.readInbound(), "nothing of the requests after the closing one");
        ch.finishAndReleaseAll();
    }

    @Test
    void http10WithoutKeepAliveIsClosedAfterItsResponse() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerKeepAliveHandler());
        ch.writeInbound(bytes("GET / HTTP/1.0\r\n\r\n"));
        assertInstanceOf(HttpRequest.class, ch.readInbound());
        ReferenceCountUtil.release(ch.readInbound());
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_0, HttpResponseStatus.OK, bytes("x")));
        assertTrue(outbound(ch).contains("connection: close"));
        assertFalse(ch.isOpen());
        ch.finish();
    }
}
