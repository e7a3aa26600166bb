package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.CompressionTestSupport.decode;
import static io.rill.handler.codec.http.CompressionTestSupport.gunzip;
import static io.rill.handler.codec.http.CompressionTestSupport.inflate;
import static io.rill.handler.codec.http.CompressionTestSupport.text;
import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Response compression: negotiation, what is skipped, streamed bodies, bounded state.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpContentCompressorTest {

    private static final byte[] BODY = text(4096);

    /** Sends a request with {@code acceptEncoding} (null: none) through the compressor. */
    private static void request(EmbeddedChannel ch, HttpMethod method, String acceptEncoding) {
        HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, "/");
        if (acceptEncoding != null) {
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, acceptEncoding);
        }
        ch.writeInbound(req);
        ReferenceCountUtil.release(ch.readInbound());
    }

    private static FullHttpResponse response(byte[] body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain").setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return r;
    }

    /** Writes {@code response} and returns the full response that came out (caller releases). */
    private static FullHttpResponse roundTrip(EmbeddedChannel ch, FullHttpResponse response) {
        ch.writeOutbound(response);
        return ch.readOutbound();
    }

    private static byte[] array(ByteBuf buf) {
        byte[] b = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), b);
        return b;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "gzip|gzip", "GZIP, deflate|gzip", "deflate|deflate", "x-gzip|gzip", "gzip;q=0, deflate|deflate",
            "deflate;q=0.5, gzip;q=0.8|gzip", "deflate;q=1, gzip;q=0.999|deflate", "*|gzip", "*;q=0.1|gzip",
            "br, *;q=0|", "identity|", "gzip;q=0|", "gzip;q=2|", "gzip;q=abc|", "br, zstd|",
            "gzip;q=0, *;q=0.5|deflate", "gzip;q=0.001, deflate;q=0.002|deflate", "gzip;q=1.000|gzip", "gzip;q=1.5|",
            "gzip;q=0.1234|", "gzip;q=0.|", "gzip;q=1.|gzip", "gzip; q=0.5|gzip"})
    void negotiatesTheCodingByQValue(String acceptEncoding, String expected) {
        // The zlib codings alone, as before br and zstd: this table is about the q-value grammar.
        EmbeddedChannel ch = new EmbeddedChannel(HttpContentCompressor.builder().codings("gzip", "deflate").build());
        request(ch, HttpMethod.GET, acceptEncoding);
        FullHttpResponse out = roundTrip(ch, response(BODY));
        assertEquals(expected, out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        byte[] body = array(out.content());
        byte[] plain = expected == null ? body : expected.equals("gzip") ? gunzip(body) : inflate(body);
        assertArrayEquals(BODY, plain);
        assertEquals(body.length, out.headers().getInt(HttpHeaderNames.CONTENT_LENGTH));
        out.release();
        assertFalse(ch.finish());
    }

    /**
     * RFC 9110 §12.5.3 with every coding, the default preference (zstd, br, gzip, deflate): the
     * highest weight wins, {@code *} fills in for codings not named, a tie goes to the server's order.
     * Each body is decoded by the library itself to the bytes sent.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "br|br", "zstd|zstd", "gzip, deflate, br, zstd|zstd", "deflate, gzip, br, zstd|zstd", "br, gzip|br",
            "gzip, deflate, br|br", "br;q=0.5, gzip|gzip", "zstd;q=0.9, br|br", "br;q=0.9, zstd;q=0.9, gzip;q=0.8|zstd",
            "*|zstd", "*;q=0.5, zstd;q=0.1|br", "zstd;q=0, br;q=0, *|gzip", "zstd;q=0, *;q=0.3, gzip;q=0.2|br",
            "identity;q=0|", "identity;q=0, br|br", "identity, *;q=0|", "br;q=0, zstd;q=0, gzip;q=0, deflate;q=0|",
            "BR|br", "ZsTd;Q=0.5, gzip;q=0.4|zstd", "compress, snappy|", "|", "x-gzip, br;q=0.999|gzip",
            "zstd;q=0.001|zstd", "br;q=1.001, gzip|gzip"})
    void negotiatesEveryCodingByQValueAndTheServersOrder(String acceptEncoding, String expected) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        request(ch, HttpMethod.GET, acceptEncoding == null ? "" : acceptEncoding);
        FullHttpResponse out = roundTrip(ch, response(BODY));
        assertEquals(expected, out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        byte[] body = array(out.content());
        assertArrayEquals(BODY, decode(expected, body));
        assertEquals(body.length, out.headers().getInt(HttpHeaderNames.CONTENT_LENGTH));
        if (expected != null) {
            assertEquals("accept-encoding", out.headers().get(HttpHeaderNames.VARY));
        }
        out.release();
        assertFalse(ch.finish());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "gzip, br, zstd|gzip|gzip", "gzip, br, zstd|br,gzip|br", "gzip;q=0.5, br;q=0.5, zstd;q=0.5|deflate,gzip,br|gzip",
            "br, zstd|gzip|", "*|deflate,zstd|deflate", "zstd;q=0.1, br;q=0.2|zstd,br|br"})
    void theConfiguredPreferenceBreaksTiesAndBoundsTheChoice(String acceptEncoding, String preference, String expected) {
        HttpContentCompressor compressor = HttpContentCompressor.builder().codings(preference.split(",")).build();
        assertEquals(java.util.List.of(preference.split(",")), compressor.codings());
        EmbeddedChannel ch = new EmbeddedChannel(compressor);
        request(ch, HttpMethod.GET, acceptEncoding);
        FullHttpResponse out = roundTrip(ch, response(BODY));
        assertEquals(expected, out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        assertArrayEquals(BODY, decode(expected, array(out.content())));
        out.release();
        assertFalse(ch.finish());
    }

    /** The libraries are on this module's test class path: every default coding is offered, br and zstd first. */
    @Test
    void theDefaultsOfferWhatIsAvailableAndTheBuilderRefusesNonsense() {
        assertEquals(HttpContentCompressor.DEFAULT_CODINGS, new HttpContentCompressor().codings());
        assertEquals(java.util.List.of("zstd", "br", "gzip", "deflate"), HttpContentCompressor.DEFAULT_CODINGS);
        HttpContentCompressor.Builder b = HttpContentCompressor.builder();
        for (Runnable bad : new Runnable[] {() -> b.codings(), () -> b.codings("gzip", "GZIP"), () -> b.codings("lz4"),
                () -> b.gzipLevel(10), () -> b.brotliQuality(12), () -> b.zstdLevel(0), () -> b.zstdLevel(20),
                () -> b.minBodySize(-1), () -> b.maxPendingRequests(0)}) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, bad::run);
        }
    }

    /** Each level setting reaches its encoder: the smallest setting gives a bigger body than the largest. */
    @ParameterizedTest
    @CsvSource({"gzip", "br", "zstd"})
    void levelsReachTheirEncoders(String coding) {
        byte[] body = text(100_000); // more than one 64 KiB input buffer of the brotli encoder
        int[] sizes = new int[2];
        for (int i = 0; i < 2; i++) {
            boolean fast = i == 0;
            HttpContentCompressor c = HttpContentCompressor.builder().codings(coding).gzipLevel(fast ? 1 : 9)
                    .brotliQuality(fast ? 0 : 6).zstdLevel(fast ? -5 : 9).build();
            EmbeddedChannel ch = new EmbeddedChannel(c);
            request(ch, HttpMethod.GET, coding);
            FullHttpResponse out = roundTrip(ch, response(body));
            sizes[i] = out.content().readableBytes();
            assertArrayEquals(body, decode(coding, array(out.content())));
            out.release();
            assertFalse(ch.finish());
        }
        assertTrue(sizes[0] > sizes[1], coding + ": fast " + sizes[0] + " vs small " + sizes[1]);
    }

    /** A full body goes to br and zstd in one call; from direct memory, empty, or larger than one input buffer. */
    @ParameterizedTest
    @CsvSource({"br", "zstd"})
    void aFullBodyInDirectMemoryEmptyOrLargeIsCompressedWhole(String coding) {
        for (int size : new int[] {0, 4096, 300_000}) {
            byte[] body = text(size);
            EmbeddedChannel ch = new EmbeddedChannel(HttpContentCompressor.builder().minBodySize(0).build());
            request(ch, HttpMethod.GET, coding);
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.directBuffer(Math.max(1, size)).writeBytes(body));
            FullHttpResponse out = roundTrip(ch, r);
            assertEquals(coding, out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
            assertArrayEquals(body, decode(coding, array(out.content())), coding + " of " + size);
            out.release();
            assertFalse(ch.finish());
        }
    }

    @ParameterizedTest
    @CsvSource({"br", "zstd"})
    void aStreamedBrOrZstdResponseIsOneStreamOfTheWholeBody(String coding) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        request(ch, HttpMethod.GET, coding);
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 3 * BODY.length);
        ch.writeOutbound(head, new DefaultHttpContent(Unpooled.wrappedBuffer(BODY)),
                new DefaultHttpContent(Unpooled.wrappedBuffer(BODY)), new DefaultLastHttpContent(Unpooled.wrappedBuffer(BODY)));
        HttpResponse outHead = ch.readOutbound();
        assertEquals(coding, outHead.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        assertTrue(HttpUtil.isTransferEncodingChunked(outHead));
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            HttpContent c = (HttpContent) o;
            compressed.writeBytes(array(c.content()));
            c.release();
        }
        assertEquals(3 * BODY.length, decode(coding, compressed.toByteArray()).length);
        assertFalse(ch.finish());
    }

    /** A range, a CONNECT's tunnel and a response already encoded are never compressed, whatever was accepted. */
    @Test
    void partialContentConnectAndEncodedResponsesAreLeftAlone() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        request(ch, HttpMethod.GET, "zstd, br, gzip");
        request(ch, HttpMethod.GET, "zstd, br, gzip");
        request(ch, HttpMethod.CONNECT, "zstd, br, gzip");
        request(ch, HttpMethod.GET, "zstd, br, gzip");
        FullHttpResponse partial = response(BODY);
        partial.setStatus(HttpResponseStatus.PARTIAL_CONTENT);
        FullHttpResponse ranged = response(BODY);
        ranged.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes 0-4095/9000");
        FullHttpResponse tunnel = response(BODY);
        FullHttpResponse zstd = response(BODY);
        zstd.headers().set(HttpHeaderNames.CONTENT_ENCODING, "zstd");
        for (FullHttpResponse r : new FullHttpResponse[] {partial, ranged, tunnel, zstd}) {
            String before = r.headers().get(HttpHeaderNames.CONTENT_ENCODING);
            FullHttpResponse out = roundTrip(ch, r);
            assertEquals(before, out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
            assertArrayEquals(BODY, array(out.content()));
            out.release();
        }
        assertFalse(ch.finish());
    }

    /** A body that is not HttpContent after a compressed head would go out plain under a coding: refused, and the connection closed. */
    @Test
    void aFileRegionAfterACompressedHeadFailsItsWrite() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("compressor", ".txt");
        try {
            java.nio.file.Files.write(file, BODY);
            EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
            request(ch, HttpMethod.GET, "gzip");
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            ch.writeOutbound(head);
            ReferenceCountUtil.release(ch.readOutbound());
            var written = ch.write(new io.rill.channel.DefaultFileRegion(file, 0, BODY.length));
            ch.flushOutbound();
            assertInstanceOf(IllegalStateException.class, written.cause());
            assertNull(ch.readOutbound());
            assertFalse(ch.isOpen(), "the head promised a coded body that cannot follow");
            ch.finishAndReleaseAll();
        } finally {
            java.nio.file.Files.delete(file);
        }
    }

    @Test
    void aCompressedResponseVariesOnAcceptEncodingBesideWhatItVariedOnBeforeAndItsTagIsWeak() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        request(ch, HttpMethod.GET, "gzip");
        FullHttpResponse r = response(BODY);
        r.headers().set(HttpHeaderNames.VARY, "Cookie").set(HttpHeaderNames.ETAG, "\"v1\"");
        FullHttpResponse out = roundTrip(ch, r);
        assertEquals("Cookie, accept-encoding", out.headers().get(HttpHeaderNames.VARY));
        assertEquals("W/\"v1\"", out.headers().get(HttpHeaderNames.ETAG), "a strong tag names the identity bytes");
        out.release();
        ch.finish();
    }

    @Test
    void smallHeadNoContentNotModifiedEncodedAndCompressedTypesAreLeftAlone() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        for (int i = 0; i < 6; i++) {
            request(ch, i == 1 ? HttpMethod.HEAD : HttpMethod.GET, "gzip");
        }
        FullHttpResponse small = response(text(1023));
        FullHttpResponse head = response(BODY);
        FullHttpResponse noContent = response(BODY);
        noContent.setStatus(HttpResponseStatus.NO_CONTENT);
        FullHttpResponse notModified = response(BODY);
        notModified.setStatus(HttpResponseStatus.NOT_MODIFIED);
        FullHttpResponse encoded = response(BODY);
        encoded.headers().set(HttpHeaderNames.CONTENT_ENCODING, "br");
        FullHttpResponse png = response(BODY);
        png.headers().set(HttpHeaderNames.CONTENT_TYPE, "image/png");
        for (FullHttpResponse r : new FullHttpResponse[] {small, head, noContent, notModified, encoded, png}) {
            FullHttpResponse out = roundTrip(ch, r);
            assertEquals(r.headers().get(HttpHeaderNames.CONTENT_ENCODING), out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
            assertNull(out.headers().get(HttpHeaderNames.VARY));
            out.release();
        }
        ch.finish();
    }

    @Test
    void aStreamedResponseBecomesChunkedAndDecompressesToTheSameBytes() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        request(ch, HttpMethod.GET, "gzip, deflate");
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 3 * BODY.length);
        HttpHeaders trailers = new HttpHeaders().add("x-sum", "1");
        ch.writeOutbound(head, new DefaultHttpContent(Unpooled.wrappedBuffer(BODY)),
                new DefaultHttpContent(Unpooled.wrappedBuffer(BODY)),
                new DefaultLastHttpContent(Unpooled.wrappedBuffer(BODY), trailers));
        HttpResponse outHead = ch.readOutbound();
        assertEquals("gzip", outHead.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        assertFalse(outHead.headers().contains(HttpHeaderNames.CONTENT_LENGTH));
        assertTrue(HttpUtil.isTransferEncodingChunked(outHead));
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            HttpContent c = (HttpContent) o;
            compressed.writeBytes(array(c.content()));
            if (c instanceof LastHttpContent last) {
                assertEquals("1", last.trailingHeaders().get("x-sum"));
            }
            c.release();
        }
        byte[] plain = gunzip(compressed.toByteArray());
        assertEquals(3 * BODY.length, plain.length);
        assertFalse(ch.finish());
    }

    @Test
    void repeatedAcceptEncodingFieldsAreOneList() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        req.headers().add(HttpHeaderNames.ACCEPT_ENCODING, "gzip;q=0.1").add(HttpHeaderNames.ACCEPT_ENCODING, "deflate");
        ch.writeInbound(req);
        ReferenceCountUtil.release(ch.readInbound());
        FullHttpResponse out = roundTrip(ch, response(BODY));
        assertEquals("deflate", out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        out.release();
        ch.finish();
    }

    @Test
    void anInterimResponseDoesNotTakeTheCodingOfItsRequest() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        request(ch, HttpMethod.GET, "gzip");
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        ReferenceCountUtil.release(ch.readOutbound());
        FullHttpResponse out = roundTrip(ch, response(BODY));
        assertEquals("gzip", out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        out.release();
        ch.finish();
    }

    /**
     * H1-17: 100 000 pipelined requests never answered cost a fixed ring; the responses still go
     * out in order, the first {@code maxPendingRequests} compressed as asked, the rest plain.
     */
    @Test
    void h1_17_pipelinedRequestsBeyondTheRingAreCountedNotQueued() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor(6, 0, 16));
        for (int i = 0; i < 100_000; i++) {
            request(ch, HttpMethod.GET, i % 2 == 0 ? "gzip" : "deflate");
        }
        for (int i = 0; i < 40; i++) {
            FullHttpResponse out = roundTrip(ch, response(BODY));
            String expected = i >= 16 ? null : i % 2 == 0 ? "gzip" : "deflate";
            assertEquals(expected, out.headers().get(HttpHeaderNames.CONTENT_ENCODING), "response " + i);
            out.release();
        }
        ch.finish();
    }

    @Test
    void worksBehindTheServerCodecOnTheWire() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpContentCompressor());
        ch.writeInbound(bytes("GET / HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n"));
        ReferenceCountUtil.release(ch.readInbound());
        ReferenceCountUtil.release(ch.readInbound());
        ch.writeOutbound(response(BODY));
        String wire = outbound(ch);
        assertTrue(wire.contains("\r\ncontent-encoding: gzip\r\n"), wire);
        String body = wire.substring(wire.indexOf("\r\n\r\n") + 4);
        assertArrayEquals(BODY, gunzip(body.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
        ch.finish();
    }
}
