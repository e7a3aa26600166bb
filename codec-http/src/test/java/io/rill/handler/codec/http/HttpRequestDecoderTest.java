package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Requests the decoder accepts, decoded identically however the bytes arrive. */
class HttpRequestDecoderTest {

    private static List<String> decode(String input) {
        return HttpDecodeRun.everyWay(HttpRequestDecoder::new, input);
    }

    @Test
    void aGetWithFieldsHasNoBody() {
        assertEquals(List.of("GET /index.html?q=1 HTTP/1.1 | host: example.com | accept: */* | X-Empty: "),
                decode("GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\naccept: */*\r\nX-Empty:\r\n\r\n"));
    }

    @Test
    void optionalWhitespaceAroundValuesIsTrimmedAndInnerWhitespaceKept() {
        assertEquals(List.of("GET / HTTP/1.1 | host: a | user-agent: curl/8  (x)"),
                decode("GET / HTTP/1.1\r\nHost: a\r\nUser-Agent: \t curl/8  (x) \t\r\n\r\n"));
    }

    @Test
    void aFixedLengthBodyIsPassedOnAndTheNextRequestFollows() {
        assertEquals(List.of("POST /echo HTTP/1.1 | host: a | content-length: 11 | body hello world",
                        "GET /next HTTP/1.1 | host: a"),
                decode("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world"
                        + "GET /next HTTP/1.1\r\nHost: a\r\n\r\n"));
    }

    @Test
    void aChunkedBodyWithExtensionsAndTrailersIsReassembled() {
        assertEquals(List.of("POST /up HTTP/1.1 | host: a | transfer-encoding: chunked | body hello, world!"
                        + " | trailers | Checksum: abc"),
                decode("POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n"
                        + "2;ext=value;quoted=\"a \\\" b\"\r\n, \r\n"
                        + "6 ; last\r\nworld!\r\n"
                        + "0\r\nChecksum: abc\r\n\r\n"));
    }

    @Test
    void emptyLinesBeforeARequestAreIgnored() {
        assertEquals(List.of("GET / HTTP/1.1 | host: a", "GET /2 HTTP/1.1 | host: a"),
                decode("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"));
    }

    @Test
    void http10NeedsNoHostAndUnknownMethodsThatAreTokensPass() {
        assertEquals(List.of("GET / HTTP/1.0", "PURGE /cache HTTP/1.1 | host: a"),
                decode("GET / HTTP/1.0\r\n\r\nPURGE /cache HTTP/1.1\r\nHost: a\r\n\r\n"));
    }

    @Test
    void knownMethodsAndNamesAreSharedConstants() {
        io.rill.channel.embedded.EmbeddedChannel ch = new io.rill.channel.embedded.EmbeddedChannel(new HttpRequestDecoder());
        ch.writeInbound(io.rill.buffer.Unpooled.copiedBuffer("DELETE / HTTP/1.1\r\nHOST: a\r\n\r\n",
                java.nio.charset.StandardCharsets.US_ASCII));
        HttpRequest request = ch.readInbound();
        org.junit.jupiter.api.Assertions.assertSame(HttpMethod.DELETE, request.method());
        org.junit.jupiter.api.Assertions.assertSame(HttpHeaderNames.HOST, request.headers().nameAt(0));
        org.junit.jupiter.api.Assertions.assertSame(LastHttpContent.EMPTY_LAST_CONTENT, ch.readInbound());
        ch.finish();
    }

    @Test
    void aBodyLargerThanTheChunkLimitComesInPiecesOfAtMostThatSize() {
        io.rill.channel.embedded.EmbeddedChannel ch = new io.rill.channel.embedded.EmbeddedChannel(
                new HttpRequestDecoder(HttpDecoderConfig.DEFAULT.withMaxChunkSize(10)));
        ch.writeInbound(io.rill.buffer.Unpooled.copiedBuffer("PUT / HTTP/1.1\r\nHost: a\r\nContent-Length: 25\r\n\r\n"
                + "abcdefghijklmnopqrstuvwxy", java.nio.charset.StandardCharsets.US_ASCII));
        io.rill.buffer.ReferenceCountUtil.release(ch.readInbound());
        int[] sizes = new int[3];
        for (int i = 0; i < 3; i++) {
            HttpContent c = ch.readInbound();
            sizes[i] = c.content().readableBytes();
            org.junit.jupiter.api.Assertions.assertEquals(i == 2, c instanceof LastHttpContent);
            c.release();
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {10, 10, 5}, sizes);
        ch.finish();
    }
}
