package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.CompressionTestSupport.deflate;
import static io.rill.handler.codec.http.CompressionTestSupport.encode;
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
import io.rill.channel.AttributeKey;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.compression.DecompressionLimitException;

/**
 * Request and response body decoding: codings, stacking, the one cap, failures.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpContentDecompressorTest {

    private static final byte[] BODY = text(50_000);

    /**
     * What the application saw of one message: its head, its body, the biggest piece, the exception
     * fired (null if none) and whether an end of content came.
     */
    private record Seen(String head, byte[] body, int biggestPiece, Throwable failure, boolean ended) {
        boolean failed() {
            return failure != null;
        }
    }

    /** The application: keeps, in order, what reaches it, exceptions included (as {@code Throwable}s); releases messages. */
    private static final class Recorder implements ChannelHandler {
        final List<Object> events = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            events.add(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            events.add(cause);
        }

        /** What arrived since the last call; the messages are released. */
        Seen take() {
            String head = null;
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            int biggest = 0;
            Throwable failure = null;
            boolean ended = false;
            for (Object o : events) {
                assertFalse(ended && o instanceof Throwable, "an exception after the end of content");
                assertFalse(failure != null && o instanceof LastHttpContent, "an end of content after the exception");
                if (o instanceof Throwable t) {
                    failure = t;
                    continue;
                }
                if (o instanceof HttpMessage m) {
                    head = m.headers().get(HttpHeaderNames.CONTENT_ENCODING) + "/"
                            + m.headers().get(HttpHeaderNames.CONTENT_LENGTH)
                            + "/" + m.headers().get(HttpHeaderNames.TRANSFER_ENCODING);
                }
                if (o instanceof HttpContent c) {
                    ByteBuf b = c.content();
                    biggest = Math.max(biggest, b.readableBytes());
                    byte[] bytes = new byte[b.readableBytes()];
                    b.getBytes(b.readerIndex(), bytes);
                    body.writeBytes(bytes);
                    ended |= o instanceof LastHttpContent;
                }
                ReferenceCountUtil.release(o);
            }
            events.clear();
            return new Seen(head, body.toByteArray(), biggest, failure, ended);
        }
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

    /** Where a test channel's {@link Recorder} is kept: a closed channel's pipeline is empty. */
    private static final AttributeKey<Recorder> RECORDER = AttributeKey.valueOf("HttpContentDecompressorTest.recorder");

    private static EmbeddedChannel recorded(ChannelHandler... handlers) {
        Recorder recorder = new Recorder();
        ChannelHandler[] all = java.util.Arrays.copyOf(handlers, handlers.length + 1);
        all[handlers.length] = recorder;
        EmbeddedChannel ch = new EmbeddedChannel(all);
        ch.attr(RECORDER).set(recorder);
        return ch;
    }

    private static EmbeddedChannel server(long cap) {
        return recorded(new HttpServerCodec(), HttpContentDecompressor.builder().maxDecodedBytes(cap).build());
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
        return ch.attr(RECORDER).get().take();
    }

    private static Seen feedWhole(EmbeddedChannel ch, byte[] input) {
        return feed(ch, input, List.of(input.length));
    }

    /** A client that sent a GET and is about to read the answer; decoding with {@code decompressor}. */
    private static EmbeddedChannel client(HttpContentDecompressor decompressor) {
        EmbeddedChannel ch = recorded(new HttpClientCodec(), decompressor);
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        outbound(ch);
        return ch;
    }

    private static byte[] gzipResponse(byte[] coded) {
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + coded.length + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(head, head.length + coded.length);
        System.arraycopy(coded, 0, all, head.length, coded.length);
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "x-gzip", "deflate", "x-deflate", "deflate-raw", "gzip, gzip", "deflate, gzip",
            "identity, gzip", "br", "zstd", "gzip, br", "br, zstd", "zstd, gzip"})
    void decodesEveryCodingWholeByteByByteAndInRandomPieces(String codings) {
        byte[] small = text(3000);
        byte[] coded = small;
        String header = codings.equals("deflate-raw") ? "deflate" : codings;
        for (String c : codings.split(", ")) {
            coded = encode(c.toLowerCase(java.util.Locale.ROOT), coded);
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
    void acceptEncodingOffersWhatItDecodesStrongestFirst() {
        // Both optional libraries are on this module's test class path.
        assertEquals("zstd, br, gzip, deflate", HttpContentDecompressor.acceptEncoding());
    }

    @Test
    void c01_c04_aGzipBombStopsAtTheCapWith413InSmallPiecesAndNothingLeaks() {
        byte[] bomb = gzip(new byte[64 << 20]);
        EmbeddedChannel ch = server(1 << 20);
        Seen seen = feedWhole(ch, request("gzip", bomb));
        assertTrue(seen.failed());
        assertFalse(seen.ended());
        assertTrue(seen.body().length <= 1 << 20, "passed on " + seen.body().length);
        assertTrue(seen.biggestPiece() <= 64 * 1024, "piece of " + seen.biggestPiece());
        assertTrue(outbound(ch).startsWith("HTTP/1.1 413 "));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    /**
     * C-05: a br or zstd bomb ends like a gzip one: at the cap with 413 (and with the ratio on, by
     * the ratio), in small pieces, nothing leaked; stacked on gzip, the stages count together.
     */
    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd", "gzip, br", "zstd, gzip"})
    void c05_aBrOrZstdBombStopsAtTheCapWith413InSmallPieces(String codings) {
        byte[] bomb = new byte[2 << 20]; // twice the cap
        for (String c : codings.split(", ")) {
            bomb = encode(c, bomb);
        }
        for (boolean ratio : new boolean[] {false, true}) {
            EmbeddedChannel ch = recorded(new HttpServerCodec(), HttpContentDecompressor.builder()
                    .maxDecodedBytes(1 << 20).maxRatio(ratio ? HttpContentDecompressor.DEFAULT_MAX_RATIO : 0).build());
            Seen seen = feedWhole(ch, request(codings, bomb));
            DecompressionLimitException e = assertInstanceOf(DecompressionLimitException.class, seen.failure());
            assertEquals(ratio ? "maxRatio" : "maxDecodedBytes", e.limitName(), e.getMessage());
            assertFalse(seen.ended());
            assertTrue(seen.body().length <= 1 << 20, "passed on " + seen.body().length);
            assertTrue(seen.biggestPiece() <= 64 * 1024, "piece of " + seen.biggestPiece());
            assertTrue(outbound(ch).startsWith("HTTP/1.1 413 "));
            assertFalse(ch.isOpen());
            ch.finishAndReleaseAll();
        }
    }

    /** Corrupt, truncated or trailing-garbage br and zstd bodies are a 400 with a DecompressionException, no end of content. */
    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd"})
    void corruptOrTruncatedBrAndZstdAre400(String coding) {
        byte[] good = encode(coding, BODY);
        byte[] corrupt = good.clone();
        for (int i = 4; i < 40; i++) {
            corrupt[i] ^= 0x5a;
        }
        byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
        byte[] garbage = "not compressed at all, just text".getBytes(StandardCharsets.US_ASCII);
        for (byte[] body : new byte[][] {corrupt, truncated, garbage}) {
            EmbeddedChannel ch = server(1 << 20);
            Seen seen = feedWhole(ch, request(coding, body));
            assertInstanceOf(io.rill.handler.codec.compression.DecompressionException.class, seen.failure());
            assertFalse(seen.ended());
            assertTrue(outbound(ch).startsWith("HTTP/1.1 400 "));
            assertFalse(ch.isOpen());
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd"})
    void aClientDecodesABrOrZstdResponse(String coding) {
        byte[] coded = encode(coding, BODY);
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Encoding: " + coding + "\r\nContent-Length: " + coded.length + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(head, head.length + coded.length);
        System.arraycopy(coded, 0, all, head.length, coded.length);
        EmbeddedChannel ch = client(new HttpContentDecompressor());
        Seen seen = feedWhole(ch, all);
        assertArrayEquals(BODY, seen.body());
        assertTrue(seen.ended());
        assertFalse(seen.failed());
        ch.finish();
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
    @ValueSource(strings = {"snappy", "lz4", "gzip, snappy", "br, compress", "compress", "zstd, br, gzip, zstd, br"})
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
            Seen seen = feedWhole(ch, request("gzip", body));
            assertTrue(seen.failed());
            assertFalse(seen.ended());
            assertTrue(outbound(ch).startsWith("HTTP/1.1 400 "));
            assertFalse(ch.isOpen());
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aFullRequestIsDecodedIntoHeadAndPieces() {
        EmbeddedChannel ch = recorded(new HttpContentDecompressor());
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.wrappedBuffer(gzip(BODY)));
        req.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        ch.writeInbound(req);
        Seen seen = feed(ch, new byte[0], List.of());
        assertArrayEquals(BODY, seen.body());
        assertFalse(ch.finish());
    }

    /**
     * Issue 31: the exception reaches the handler and no end of content follows, so a body cut
     * short by the cap never looks whole; an aggregator after the decompressor joins nothing.
     */
    @Test
    void aClientSeesTheCapAsAnExceptionAndNoEndOfContent() {
        // Zeros pass the default ratio within the first chunk; without it, the cap is what stops them.
        EmbeddedChannel ch = client(HttpContentDecompressor.builder().maxDecodedBytes(1 << 16).maxRatio(0).build());
        Seen seen = feedWhole(ch, gzipResponse(gzip(new byte[1 << 20])));
        DecompressionLimitException e = assertInstanceOf(DecompressionLimitException.class, seen.failure());
        assertEquals("maxDecodedBytes", e.limitName());
        assertTrue(e.getMessage().contains("65536") && e.getMessage().contains("maxDecodedBytes"), e.getMessage());
        assertFalse(seen.ended(), "no LastHttpContent after a failed body");
        assertTrue(seen.body().length <= 1 << 16, "passed on " + seen.body().length);
        ch.finishAndReleaseAll();

        EmbeddedChannel joined = recorded(new HttpClientCodec(),
                HttpContentDecompressor.builder().maxDecodedBytes(1 << 16).build(), new HttpObjectAggregator(1 << 20));
        joined.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        outbound(joined);
        Seen whole = feedWhole(joined, gzipResponse(gzip(new byte[1 << 20])));
        assertInstanceOf(DecompressionLimitException.class, whole.failure());
        assertEquals(null, whole.head(), "the aggregator passed on no response");
        joined.finishAndReleaseAll();
    }

    @Test
    void aTruncatedResponseBodyIsAnExceptionAndNoEndOfContent() {
        byte[] good = gzip(BODY);
        EmbeddedChannel ch = client(new HttpContentDecompressor());
        Seen seen = feedWhole(ch, gzipResponse(java.util.Arrays.copyOf(good, good.length / 2)));
        assertTrue(seen.failed());
        assertFalse(seen.ended());
        ch.finishAndReleaseAll();
    }

    @Test
    void aRequestOverTheCapIsAnsweredThenTheExceptionFiredWithNoEndOfContent() {
        EmbeddedChannel ch = server(1 << 16);
        Seen seen = feedWhole(ch, request("gzip", gzip(new byte[1 << 20])));
        assertInstanceOf(DecompressionLimitException.class, seen.failure());
        assertFalse(seen.ended());
        assertTrue(outbound(ch).startsWith("HTTP/1.1 413 "));
        ch.finishAndReleaseAll();
    }

    /**
     * Issue 31: 4 MiB of one byte gzips to about 4 KiB, well past the default ratio of 100; a client
     * that expects such pages raises the ratio or turns it off, the cap still holding.
     */
    @Test
    void theRatioIsASettingAndZeroTurnsItOff() {
        byte[] page = new byte[4 << 20];
        java.util.Arrays.fill(page, (byte) ' ');
        byte[] response = gzipResponse(gzip(page));

        EmbeddedChannel strict = client(new HttpContentDecompressor());
        Seen refused = feedWhole(strict, response);
        DecompressionLimitException e = assertInstanceOf(DecompressionLimitException.class, refused.failure());
        assertEquals("maxRatio", e.limitName());
        assertEquals(HttpContentDecompressor.DEFAULT_MAX_RATIO, e.limit());
        assertFalse(refused.ended());
        strict.finishAndReleaseAll();

        for (int ratio : new int[] {0, 2000}) {
            EmbeddedChannel lenient = client(HttpContentDecompressor.builder().maxRatio(ratio).build());
            Seen seen = feedWhole(lenient, response);
            assertFalse(seen.failed(), "ratio " + ratio + ": " + seen.failure());
            assertTrue(seen.ended());
            assertArrayEquals(page, seen.body());
            lenient.finish();
        }

        EmbeddedChannel capped = client(HttpContentDecompressor.builder().maxRatio(0).maxDecodedBytes(1 << 20).build());
        assertEquals("maxDecodedBytes", ((DecompressionLimitException) feedWhole(capped, response).failure()).limitName());
        capped.finishAndReleaseAll();
    }

    /**
     * Netty's {@code new HttpContentDecompressor(int)} caps each buffer; here a number alone would
     * cap the whole body. No constructor takes a bare number, so such a call does not compile.
     */
    @Test
    void theBoundsAreNamedByTheBuilderAndNoConstructorTakesABareNumber() {
        for (java.lang.reflect.Constructor<?> c : HttpContentDecompressor.class.getDeclaredConstructors()) {
            for (Class<?> type : c.getParameterTypes()) {
                assertFalse(type.isPrimitive() || Number.class.isAssignableFrom(type), c.toString());
            }
        }
        HttpContentDecompressor d = HttpContentDecompressor.builder().maxDecodedBytes(5000).maxRatio(7).build();
        assertEquals(5000, d.maxDecodedBytes());
        assertEquals(7, d.maxRatio());
        assertEquals(HttpContentDecompressor.DEFAULT_MAX_DECODED_BYTES, new HttpContentDecompressor().maxDecodedBytes());
        assertEquals(HttpContentDecompressor.DEFAULT_MAX_RATIO, new HttpContentDecompressor().maxRatio());
        IllegalArgumentException cap = assertThrows(IllegalArgumentException.class,
                () -> HttpContentDecompressor.builder().maxDecodedBytes(0));
        assertTrue(cap.getMessage().contains("maxDecodedBytes"), cap.getMessage());
        IllegalArgumentException ratio = assertThrows(IllegalArgumentException.class,
                () -> HttpContentDecompressor.builder().maxRatio(-1));
        assertTrue(ratio.getMessage().contains("maxRatio"), ratio.getMessage());
    }

    @Test
    void aResponseWithAnUnknownCodingPassesThroughUntouched() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        r.headers().set(HttpHeaderNames.CONTENT_ENCODING, "snappy");
        ch.writeInbound(r);
        FullHttpResponse out = ch.readInbound();
        assertEquals("snappy", out.headers().get(HttpHeaderNames.CONTENT_ENCODING));
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
