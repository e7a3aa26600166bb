package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;

/**
 * The server-side HTTP/1.1 cases of docs/security-cases.md (H1, S, L) over a real connection,
 * by their IDs: the exact attack bytes, then a request that must never be served. Each attack gets
 * exactly one answer with the status the case names, then the connection closes. The cases with
 * no server-side wire input (encoder and API misuse: H1-06, H1-09, H1-11, H1-18, H1-19, H1-20) are
 * tested where they live, in codec-http; L-06 and S-13 are in {@link SocketHttpTests}.
 */
abstract class SocketHttpSecurityTests extends AbstractSocketTest {

    private static final String POST = "POST / HTTP/1.1\r\nHost: a\r\n";
    private static final String CHUNKED = POST + "Transfer-Encoding: chunked\r\n\r\n";
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n";
    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

    static Stream<Arguments> attacks() {
        return Stream.of(
                Arguments.of("H1-01", "GET /some/path HTTP/1.1\r\nTransfer-Encoding : chunked\r\nHost: netty.io\r\n\r\n", 400),
                Arguments.of("H1-02", "GET /some/path HTTP/1.1\r\nContent-Length: 0\r\nHost:\r\nnetty.io\r\n\r\n", 400),
                Arguments.of("H1-03", POST + "Content-Length: 1\r\nContent-Length: 0\r\n\r\nb", 400),
                Arguments.of("H1-03", POST + "Content-Length: 1,1\r\n\r\nb", 400),
                Arguments.of("H1-04", POST + " Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("H1-05", POST + "Transfer-Encoding\u000c: chunked\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("H1-08", CHUNKED + "5\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("H1-08", CHUNKED + "5\r\nhelloXX0\r\n\r\n", 400),
                Arguments.of("H1-10", CHUNKED + "1;a=\"x\r\nb\r\n0\r\n\r\n", 400),
                Arguments.of("H1-12", CHUNKED + "100000004\r\ntest\r\n0\r\n\r\n", 400),
                Arguments.of("H1-13", "POST /api HTTP/1.0\r\nHost: i\r\nTransfer-Encoding: chunked\r\nContent-Length: 30\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("H1-15", "\u0000\u0001\u0002GET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                Arguments.of("H1-16", POST + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("H1-16", POST + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
                Arguments.of("S-01", POST + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nX", 400),
                Arguments.of("S-02", POST + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("S-02", POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("S-02", POST + "Transfer-Encoding\n: chunked\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("S-03", POST + "Content-Length: +5\r\n\r\nhello", 400),
                Arguments.of("S-03", POST + "Content-Length: 0x5\r\n\r\nhello", 400),
                Arguments.of("S-03", POST + "Content-Length: 99999999999999999999\r\n\r\nhello", 400),
                Arguments.of("S-04", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", 400),
                Arguments.of("S-05", "GET / HTTP/1.1\r\nHost: a\rX: b\r\n\r\n", 400),
                Arguments.of("S-06", "GET /\u0000 HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                Arguments.of("S-06", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u0000c\r\n\r\n", 400),
                Arguments.of("S-07", CHUNKED + "-1\r\nx\r\n0\r\n\r\n", 400),
                Arguments.of("S-07", CHUNKED + "FFFFFFFFFFFFFFFF1\r\nx\r\n0\r\n\r\n", 400),
                Arguments.of("S-08", CHUNKED + "2\r\nxy\r\n0\r\nContent-Length: 50\r\n\r\n", 400),
                Arguments.of("S-08", CHUNKED + "0\r\nTransfer-Encoding: x\r\n\r\n", 400),
                Arguments.of("S-10", "GET h/ttp://a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                Arguments.of("S-09", "POST /api HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("S-10", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                Arguments.of("S-10", "GET / http/1.1\r\nHost: a\r\n\r\n", 400),
                Arguments.of("S-10", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
                Arguments.of("S-11", "GET / HTTP/1.1\r\n\r\n", 400),
                Arguments.of("S-11", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                Arguments.of("S-12", "PUT / HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\nok", 417),
                Arguments.of("L-01", "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
                Arguments.of("L-02", "GET / HTTP/1.1\r\nHost: a\r\n" + ("X-a: " + "b".repeat(100) + "\r\n").repeat(200) + "\r\n", 431),
                Arguments.of("L-03", "GET / HTTP/1.1\r\nHost: a\r\n" + "a:\r\n".repeat(5_000) + "\r\n", 431),
                Arguments.of("L-04", "\r\n".repeat(10_000) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n", 414),
                Arguments.of("L-05", POST + "Content-Length: 10000000000\r\n\r\n", 413));
    }

    private Channel startServer() {
        return startServer(SocketHttpTests.appPipeline(1 << 20));
    }

    /** Sends {@code bytes} on a new connection and returns all that came back before the server closed. */
    private String exchange(Channel server, String bytes) throws Exception {
        ByteCollector received = new ByteCollector();
        Channel raw = connect(server, received);
        await(raw.writeAndFlush(Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1)));
        await(raw.closeFuture());
        return new String(received.await(received.size()), StandardCharsets.ISO_8859_1);
    }

    private static int statusCount(String answer) {
        int n = 0;
        for (Matcher m = STATUS_LINE.matcher(answer); m.find(); ) {
            n++;
        }
        return n;
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("attacks")
    void anAttackGetsOneAnswerWithItsStatusAndTheConnectionCloses(String id, String attack, int status) throws Exception {
        String answer = exchange(startServer(), attack + SMUGGLED);
        assertTrue(answer.startsWith("HTTP/1.1 " + status + " "), id + ": " + answer);
        assertEquals(1, statusCount(answer), id + ": exactly one answer, the smuggled request is never served: " + answer);
    }

    @Test
    void s02_s08_s12_whatIsValidIsServedAndTheNextRequestFollows() throws Exception {
        Channel server = startServer();
        String answer = exchange(server, "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\tchunked\r\n\r\n"
                + "2\r\nxy\r\n0\r\nX-Checksum: 50\r\nServer-Timing: x\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok"
                + "GET /last HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        Matcher m = STATUS_LINE.matcher(answer);
        StringBuilder statuses = new StringBuilder();
        while (m.find()) {
            statuses.append(m.group(1)).append(' ');
        }
        // A tab before "chunked" is valid whitespace (S-02); trailers do not change framing (S-08);
        // a body sent without waiting for 100 Continue is still read as the body (S-12).
        assertEquals("200 100 200 200 ", statuses.toString(), answer);
        assertTrue(answer.contains("\r\n\r\nxyHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"),
                answer);
        assertFalse(answer.contains("HTTP/1.1 400"), answer);
    }
}
