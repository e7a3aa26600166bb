package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.EncoderException;

/**
 * What the encoders write, checked as text and by decoding it back.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpEncoderTest {

    @Test
    void aFullResponseWithASmallBodyIsOneBufferAndGetsItsLength() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, bytes("hello"));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
        ch.writeOutbound(response);
        ByteBuf only = ch.readOutbound();
        assertEquals("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n\r\nhello",
                only.toString(java.nio.charset.StandardCharsets.ISO_8859_1));
        only.release();
        assertEquals(null, (Object) ch.readOutbound());
        ch.finish();
    }

    @Test
    void aLargeBodyFollowsTheHeadWithoutACopy() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        ByteBuf body = bytes("x".repeat(5000));
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body));
        ByteBuf head = ch.readOutbound();
        ByteBuf sent = ch.readOutbound();
        assertTrue(head.toString(java.nio.charset.StandardCharsets.US_ASCII).endsWith("content-length: 5000\r\n\r\n"));
        assertEquals(5000, sent.readableBytes());
        head.release();
        sent.release();
        ch.finish();
    }

    @Test
    void aChunkedResponseRoundTripsThroughTheDecoder() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(head, true);
        LastHttpContent last = new DefaultLastHttpContent(bytes("!"));
        last.trailingHeaders().add("checksum", "abc");
        ch.writeOutbound(head, new DefaultHttpContent(bytes("hello, ")), new DefaultHttpContent(bytes("y".repeat(2000))),
                new DefaultHttpContent(bytes("")), last);
        String wire = outbound(ch);
        assertTrue(wire.startsWith("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n7\r\nhello, \r\n7d0\r\n"), wire);
        assertTrue(wire.endsWith("\r\n1\r\n!\r\n0\r\nchecksum: abc\r\n\r\n"), wire);
        assertEquals(List.of("HTTP/1.1 200 | transfer-encoding: chunked | body hello, " + "y".repeat(2000)
                        + "! | trailers | checksum: abc"),
                HttpDecodeRun.run(HttpResponseDecoder::new, wire.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                        List.of(wire.length())));
        ch.finish();
    }

    @Test
    void onlyAFinalChunkedCodingMakesTheBodyChunked() {
        for (String[] fields : new String[][] {{"chunked, gzip"}, {"chunked", "gzip"}, {"chunked,x,"}}) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            for (String field : fields) {
                head.headers().add(HttpHeaderNames.TRANSFER_ENCODING, field);
            }
            assertFalse(HttpUtil.isTransferEncodingChunked(head), String.join(" | ", fields));
            ch.writeOutbound(head, new DefaultLastHttpContent(bytes("raw")));
            // The decoders read such a response to the end of the connection: no chunk framing.
            assertTrue(outbound(ch).endsWith("\r\n\r\nraw"), String.join(" | ", fields));
            ch.finish();
        }
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().add(HttpHeaderNames.TRANSFER_ENCODING, "gzip,").add(HttpHeaderNames.TRANSFER_ENCODING, " , Chunked ,");
        assertTrue(HttpUtil.isTransferEncodingChunked(head));
    }

    @Test
    void aRequestRoundTrips() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/p?q=1", bytes("body"));
        request.headers().set(HttpHeaderNames.HOST, "a");
        ch.writeOutbound(request);
        assertEquals("POST /p?q=1 HTTP/1.1\r\nhost: a\r\ncontent-length: 4\r\n\r\nbody", outbound(ch));
        ch.finish();
    }

    /** RFC 9110 section 8.6: no Content-Length on a request without content whose method anticipates none. */
    @Test
    void anEmptyGetCarriesNoContentLengthButAnEmptyPostDoes() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
        for (HttpMethod method : List.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.DELETE, HttpMethod.OPTIONS)) {
            ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, "/"));
            assertEquals(method + " / HTTP/1.1\r\n\r\n", outbound(ch));
        }
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/", bytes("q")));
        assertEquals("GET / HTTP/1.1\r\ncontent-length: 1\r\n\r\nq", outbound(ch), "content is still framed");
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/"));
        assertEquals("POST / HTTP/1.1\r\ncontent-length: 0\r\n\r\n", outbound(ch), "a POST anticipates content");
        ch.finish();
    }

    @Test
    void aHeadWhileABodyIsOpenIsRefused() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        HttpResponse chunked = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(chunked, true);
        ch.writeOutbound(chunked);
        outbound(ch);
        assertThrows(EncoderException.class,
                () -> ch.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK)));
        ch.finishAndReleaseAll();
    }

    @Test
    void noBodyIsWrittenFor204And304AndInterimResponses() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT, bytes("x")));
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        assertEquals("HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n", outbound(ch));
        ch.finish();
    }

    @Test
    void h1_09_h1_11_requestTargetsCannotSplitTheRequestLine() {
        String attack = "/a HTTP/1.1\r\nHost: x\r\n\r\nGET /smuggled";
        assertThrows(IllegalArgumentException.class, () -> new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, attack));
        DefaultHttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        assertThrows(IllegalArgumentException.class, () -> request.setUri("/ HTTP/1.1\r\nHost: x\r\n\r\nGET /x"));
        assertEquals("/", request.uri());
    }

    @Test
    void h1_06_everyHeaderSetterRefusesLineBreaksAndNul() {
        HttpHeaders h = new HttpHeaders();
        String split = "a\r\nSet-Cookie: x=y";
        assertThrows(IllegalArgumentException.class, () -> h.add("X", split));
        assertThrows(IllegalArgumentException.class, () -> h.set("X", split));
        assertThrows(IllegalArgumentException.class, () -> h.add("X", List.of("ok", split)));
        assertThrows(IllegalArgumentException.class, () -> h.set("X", List.of(split)));
        assertThrows(IllegalArgumentException.class, () -> h.add("X", "a\u0000b"));
        assertThrows(IllegalArgumentException.class, () -> h.add("Bad Name", "v"));
        assertThrows(IllegalArgumentException.class, () -> h.add("Bad\r\nName", "v"));
        HttpHeaders other = new HttpHeaders(false).add("X", split);
        assertThrows(IllegalArgumentException.class, () -> h.add(other));
        assertEquals(false, h.contains("X"), "nothing was added");
    }

    @Test
    void h1_20_everyControlCharacterIsRefusedByEverySetter() {
        for (int i = 0; i < 0x20; i++) {
            char c = (char) i;
            String s = "a" + c + "b";
            if (c != '\t') {
                assertThrows(IllegalArgumentException.class, () -> new HttpHeaders().add("X", s), "value with " + (int) c);
                assertThrows(IllegalArgumentException.class, () -> HttpResponseStatus.valueOf(200, s), "reason with " + (int) c);
            }
            assertThrows(IllegalArgumentException.class, () -> new HttpHeaders().add(s, "v"), "name with " + (int) c);
            assertThrows(IllegalArgumentException.class, () -> new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/" + s));
            assertThrows(IllegalArgumentException.class, () -> HttpMethod.valueOf("G" + c));
        }
        assertThrows(IllegalArgumentException.class, () -> new HttpHeaders().add("X", "a\u007fb"));
        assertThrows(IllegalArgumentException.class, () -> new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/\u007f"));
    }
}
