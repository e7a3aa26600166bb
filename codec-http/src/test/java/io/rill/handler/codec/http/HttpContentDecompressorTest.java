package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.CompressionTestSupport.deflate;
import static io.rill.handler.codec.http.CompressionTestSupport.gzip;
import static io.rill.handler.codec.http.CompressionTestSupport.noise;
import static io.rill.handler.codec.http.CompressionTestSupport.text;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.compression.DecompressionException;

/**
 * Request and response body decoding: codings, stacking, the one cap, failures.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpContentDecompressorTest {

    private static final byte[] BODY = text(50_000);

    /** What the application saw of one request. */
    private record Seen(String head, byte[] body, int biggestPiece, boolean failed) {
    }

    private static byte[] request(String codings, byte[] body) {
        String head = "POST /up HTTP/1.1\r\nHost: a\r\nContent-Encoding: " + codings + "\r\nContent-Length: "
                + body.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    private static EmbeddedChannel server(long cap) {
        return new EmbeddedChannel(new HttpServerCodec(), new HttpContentDecompressor(cap));
    }

    /** Feeds {@code input} in the given piece sizes, then collects what reached the application. */
    private static Seen feed(EmbeddedChannel ch, byte[] input, List<Integer> pieces) {
        int at = 0;
        for (int n : pieces) {
            if (!ch.isOpen()) {
                break;
            }
            ch.writeInbound(Unpooled.copiedBuffer(input, at, n)); // a copy: the decoder owns, and may shift, what it is given
            at += n;
        }
        String head = null;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int biggest = 0;
        boolean failed = false;
        for (Object o; (o = ch.readInbound()) != null; ) {
            if (o instanceof HttpRequest r) {
                head = r.headers().get(HttpHeaderNames.CONTENT_ENCODING) + "/" + r.headers().get(HttpHeaderNames.CONTENT_LENGTH)
                        + "/" + r.headers().get(HttpHeaderNames.TRANSFER_ENCODING);
            }
            if (o instanceof HttpContent c) {
                ByteBuf b = c.content();
                biggest = Math.max(biggest, b.readableBytes());
                byte[] bytes = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), bytes);
                body.writeBytes(bytes);
                failed |= c.decoderResult().isFailure();
            }
            ReferenceCountUtil.release(o);
        }
        return new Seen(head, body.toByteArray(), biggest, failed);
    }

    private static Seen feedWhole(EmbeddedChannel ch, byte[] input) {
        return feed(ch, input, List.of(input.length));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "x-gzip", "deflate", "x-deflate", "deflate-raw", "gzip, gzip", "deflate, gzip",
            "identity, gzip"})
    void decodesEveryCodingWholeByteByByteAndInRandomPieces(String codings) {
        byte[] small = text(3000);
        byte[] coded = small;
        String header = codings.equals("deflate-raw") ? "deflate" : codings;
        for (String c : codings.split(", ")) {
            coded = switch (c) {
                case "gzip", "x-gzip" -> gzip(coded);
                case "deflate", "x-deflate" -> deflate(coded, false);
                case "deflate-raw" -> deflate(coded, true);
                default -> coded;
            };
        }
        byte[] input = request(header, coded);
        List<List<Integer>> splits = new ArrayList<>();
        splits.add(List.of(input.length));
        List<Integer> ones = new ArrayList<>();
        for (int i = 0; i < input.length; i++) {
            ones.add(1);
        }
        splits.add(ones);
        Random random = new Random(input.length);
        for (int r = 0; r < 10; r++) {
            List<Integer> pieces = new ArrayList<>();
            for (int left = input.length; left > 0; ) {
                int n = Math.min(left, 1 + random.nextInt(input.length / 4));
                pieces.add(n);
                left -= n;
            }
            splits.add(pieces);
        }
        for (List<Integer> pieces : splits) {
            EmbeddedChannel ch = server(1 << 20);
            Seen seen = feed(ch, input, pieces);
            assertEquals("null/null/chunked", seen.head());
            assertArrayEquals(small, seen.body(), "pieces " + pieces.size());
            assertFalse(seen.failed());
            assertTrue(ch.isOpen());
            ch.finish();
        }
    }

    /** §2.5, C-01, C-04: 64 MiB of zeros in about 64 KB of gzip stops at the cap, in small pieces. */
    @Test
    void c01_c04_aGzipBombStopsAtTheCapWith413InSmallPiecesAndNothingLeaks() {
        byte[] bomb = gzip(new byte[64 << 20]);
        EmbeddedChannel ch = server(1 << 20);
        Seen seen = feedWhole(ch, request("gzip", bomb));
        assertTrue(seen.failed());
        assertTrue(seen.body().length <= 1 << 20, "passed on " + seen.body().length);
        assertTrue(seen.biggestPiece() <= 64 * 1024, "piece of " + seen.biggestPiece());
        assertTrue(outbound(ch).startsWith("HTTP/1.1 413 "));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    /** §2.5: the stages of {@code gzip, gzip} count together, so neither alone needs to pass the cap. */
    @Test
    void stackedCodingsCountTowardsOneCap() {
        byte[] data = noise(60_000, 1); // gzip of noise is as big as the noise: each stage puts out ~60 KB
        EmbeddedChannel once = server(100_000);
        assertArrayEquals(data, feedWhole(once, request("gzip", gzip(data))).body());
        once.finish();

        EmbeddedChannel twice = server(100_000);
        Seen seen = feedWhole(twice, request("gzip, gzip", gzip(gzip(data))));
        assertTrue(seen.failed());
        assertTrue(outbound(twice).startsWith("HTTP/1.1 413 "));
        twice.finishAndReleaseAll();
    }

    @Test
    void repeatedContentEncodingFieldsAreOneStackedList() {
        byte[] small = text(3000);
        byte[] twice = gzip(gzip(small));
        String head = "POST /up HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nContent-Encoding: gzip\r\nContent-Length: "
                + twice.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] input = java.util.Arrays.copyOf(h, h.length + twice.length);
        System.arraycopy(twice, 0, input, h.length, twice.length);
        EmbeddedChannel ch = server(1 << 20);
        assertArrayEquals(small, feedWhole(ch, input).body());
        ch.finish();
    }

    /** C-05: a coding we cannot decode is refused, not passed on unbounded to the application. */
    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd", "snappy", "gzip, br", "compress"})
    void c05_aRequestWithAnUnknownCodingIs415(String codings) {
        EmbeddedChannel ch = server(1 << 20);
        Seen seen = feedWhole(ch, request(codings, new byte[100]));
        assertEquals(null, seen.head());
        assertTrue(outbound(ch).startsWith("HTTP/1.1 415 "));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void corruptOrTruncatedDataIs400() {
        byte[] good = gzip(BODY);
        byte[] corrupt = good.clone();
        for (int i = 20; i < 60; i++) {
            corrupt[i] ^= 0x5a;
        }
        byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
        for (byte[] body : new byte[][] {corrupt, truncated}) {
            EmbeddedChannel ch = server(1 << 20);
            assertTrue(feedWhole(ch, request("gzip", body)).failed());
            assertTrue(outbound(ch).startsWith("HTTP/1.1 400 "));
            assertFalse(ch.isOpen());
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aFullRequestIsDecodedIntoHeadAndPieces() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.wrappedBuffer(gzip(BODY)));
        req.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        ch.writeInbound(req);
        Seen seen = feed(ch, new byte[0], List.of());
        assertArrayEquals(BODY, seen.body());
        assertFalse(ch.finish());
    }

    @Test
    void aClientSeesTheCapAsAFailedEndAndAnException() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec(), new HttpContentDecompressor(1 << 16));
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        outbound(ch);
        byte[] bomb = gzip(new byte[1 << 20]);
        String head = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + bomb.length + "\r\n\r\n";
        ch.writeInbound(Unpooled.copiedBuffer(head, StandardCharsets.ISO_8859_1));
        DecompressionException e = assertThrows(DecompressionException.class,
                () -> ch.writeInbound(Unpooled.wrappedBuffer(bomb)));
        assertTrue(e.getMessage().contains("65536"), e.getMessage());
        Seen seen = feed(ch, new byte[0], List.of());
        assertTrue(seen.failed());
        ch.finishAndReleaseAll();
    }

    @Test
    void aResponseWithAnUnknownCodingPassesThroughUntouched() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        r.headers().set(HttpHeaderNames.CONTENT_ENCODING, "br");
        ch.writeInbound(r);
        FullHttpResponse out = ch.readInbound();
        assertEquals("br", out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        assertEquals(3, out.content().readableBytes());
        out.release();
        ch.finish();
    }

    @Test
    void anUnencodedMessageIsNotTouched() {
        EmbeddedChannel ch = server(1 << 20);
        byte[] plain = ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello").getBytes(StandardCharsets.US_ASCII);
        Seen seen = feedWhole(ch, plain);
        assertEquals("null/5/null", seen.head());
        assertEquals("hello", new String(seen.body(), StandardCharsets.US_ASCII));
        assertInstanceOf(EmbeddedChannel.class, ch);
        ch.finish();
    }
}
