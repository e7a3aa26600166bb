package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The request cases of docs/security-cases.md (H1, S, L) as decoder tests, named by their IDs,
 * each fed whole, byte by byte and in pieces. A rejected request is one failed message (with the
 * status to answer it) and nothing after it is decoded, so a smuggled second request never
 * appears.
 */
class HttpRequestSmugglingTest {

    private static final String BAD = "FAILED 400 HttpDecoderException";

    private static List<String> decode(String input) {
        return HttpDecodeRun.everyWay(HttpRequestDecoder::new, input);
    }

    private static void assertRejected(String expected, String input) {
        assertEquals(List.of(expected), decode(input), input);
    }

    private static void assertBadRequest(String input) {
        assertRejected(BAD, input);
    }

    @Test
    void h1_01_whitespaceBetweenFieldNameAndColon() {
        assertBadRequest("GET /some/path HTTP/1.1\r\nTransfer-Encoding : chunked\r\nHost: netty.io\r\n\r\n");
    }

    @Test
    void h1_02_fieldLineWithoutAColon() {
        assertBadRequest("GET /some/path HTTP/1.1\r\nContent-Length: 0\r\nHost:\r\nnetty.io\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: 1\r\nContent-Length: 0\r\n\r\nb", "Content-Length: 1,1\r\n\r\nb",
        "Content-Length: 5\r\nContent-Length:\r\n\t6\r\n\r\n123456"})
    void h1_03_duplicateOrListedContentLength(String rest) {
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\n" + rest);
    }

    @Test
    void h1_04_obsFoldedTransferEncodingAndLeadingWhitespaceInFirstFieldName() {
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\n Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n");
        assertBadRequest("POST / HTTP/1.1\r\n\tContent-Length: 1\r\n\r\nX");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u000c", "\u001c", "\u001d", "\u001e", "\u001f"})
    void h1_05_controlCharacterBeforeOrAfterAFieldName(String c) {
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding" + c + ": chunked\r\n\r\n");
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\r\n" + c + "Transfer-Encoding: chunked\r\n\r\n");
    }

    @Test
    void h1_08_chunkLinesAndChunkDataMustEndInCrlf() {
        assertEquals(List.of("GET /one HTTP/1.1 | host: l | transfer-encoding: chunked | " + BAD),
                decode("GET /one HTTP/1.1\r\nHost: l\r\nTransfer-Encoding: chunked\r\n\r\n2;\nxx\r\n45\r\n0\r\n\r\n"
                        + "GET /two HTTP/1.1\r\nHost: l\r\n\r\n"));
        assertEquals(List.of("GET /one HTTP/1.1 | host: l | transfer-encoding: chunked | " + BAD + " | body AAAAA"),
                decode("GET /one HTTP/1.1\r\nHost: l\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nAAAAAXX45\r\n0\r\n\r\n"
                        + "GET /two HTTP/1.1\r\nHost: l\r\n\r\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1;a=\"x\r\n", "1;a=\"x", "1;a=\"x\ny\"", "1;=b", "1;a=", "1;a b", "1 x", "1 ", "1\t", "1;a=b "})
    void h1_10_malformedChunkExtensionsAreRejected(String line) {
        assertEquals(List.of("POST / HTTP/1.1 | host: l | transfer-encoding: chunked | " + BAD),
                decode("POST / HTTP/1.1\r\nHost: l\r\nTransfer-Encoding: chunked\r\n\r\n" + line + "\r\nx\r\n0\r\n\r\n"));
    }

    @Test
    void h1_10_wellFormedExtensionsPass() {
        assertEquals(List.of("POST / HTTP/1.1 | host: l | transfer-encoding: chunked | body x"),
                decode("POST / HTTP/1.1\r\nHost: l\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "1;a=b;c=\"d\" ; e\r\nx\r\n0\r\n\r\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"100000004", "8ccccccc", "bbbbbbbe;", "FFFFFFFFFFFFFFFF1", "80000000"})
    void h1_12_s07_chunkSizesBeyondTwoToThe31AreRejected(String size) {
        assertEquals(List.of("POST / HTTP/1.1 | host: l | transfer-encoding: chunked | " + BAD),
                decode("POST / HTTP/1.1\r\nHost: l\r\nTransfer-Encoding: chunked\r\n\r\n" + size + "\r\ntest\r\n0\r\n\r\n"
                        + "GET /smuggled HTTP/1.1\r\nHost: l\r\n\r\n"));
    }

    @Test
    void h1_13_s09_transferEncodingInHttp10() {
        assertBadRequest("POST /api HTTP/1.0\r\nHost: i\r\nTransfer-Encoding: chunked\r\nContent-Length: 30\r\n\r\n"
                + "0\r\n\r\nGET /admin HTTP/1.1\r\nHost: i\r\n\r\n");
        assertBadRequest("POST /api HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u0000\u0001\u0002GET / HTTP/1.1\r\nHost: a\r\n\r\n", " GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", "\r\rGET / HTTP/1.1\r\nHost: a\r\n\r\n"})
    void h1_15_onlyEmptyCrlfLinesMayPrecedeTheRequestLine(String input) {
        assertBadRequest(input);
    }

    @Test
    void h1_16_transferEncodingWhoseFinalCodingIsNotChunked() {
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n");
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n");
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc");
        assertRejected("FAILED 501 HttpDecoderException",
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n");
    }

    @Test
    void s01_contentLengthAndTransferEncodingTogether() {
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nX");
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 6\r\n\r\n0\r\n\r\nX");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Transfer-Encoding: xchunked\r\n", "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n",
        "Transfer-Encoding : chunked\r\n", "Transfer-Encoding\n: chunked\r\n", " Transfer-Encoding: chunked\r\n",
        "X: y\nTransfer-Encoding: chunked\r\n", "Transfer-Encoding: chunked, chunked\r\n",
        "Transfer-Encoding:\u000bchunked\r\n", "Transfer-Encoding:\rchunked\r\n"})
    void s02_obfuscatedTransferEncoding(String field) {
        List<String> result = decode("POST / HTTP/1.1\r\nHost: a\r\n" + field + "\r\n0\r\n\r\n");
        assertEquals(1, result.size(), result::toString);
        assertEquals(true, result.get(0).startsWith("FAILED "), result::toString);
    }

    @Test
    void s02_tabAfterTheColonIsValidWhitespace() {
        assertEquals(List.of("POST / HTTP/1.1 | host: a | transfer-encoding: chunked | body x"),
                decode("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\tchunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"));
    }

    @Test
    void s02_underscoreIsNeverADash() {
        assertEquals(List.of("POST / HTTP/1.1 | host: a | Transfer_Encoding: chunked"),
                decode("POST / HTTP/1.1\r\nHost: a\r\nTransfer_Encoding: chunked\r\n\r\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: 5\r\nContent-Length: 6\r\n", "Content-Length: 5, 5\r\n", "Content-Length: +5\r\n",
        "Content-Length: -1\r\n", "Content-Length: 0x5\r\n", "Content-Length: 5 5\r\n",
        "Content-Length: 99999999999999999999\r\n"})
    void s03_duplicateListedSignedOrOverflowingContentLength(String field) {
        assertBadRequest("POST / HTTP/1.1\r\nHost: a\r\n" + field + "\r\nhello");
    }

    @Test
    void s04_obsFoldIsRejected() {
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET / HTTP/1.1\r\nHost: a\rX: b\r\n\r\n", "GET / HTTP/1.1\nHost: a\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\n\n"})
    void s05_bareCrOrLf(String input) {
        assertBadRequest(input);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET /\u0000 HTTP/1.1\r\nHost: a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u0000c\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u007f\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u000c\r\n\r\n"})
    void s06_nulAndControlCharacters(String input) {
        assertBadRequest(input);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x10", " 10", "-1", "+1", ""})
    void s07_chunkSizeAbuse(String size) {
        assertEquals(List.of("POST / HTTP/1.1 | host: a | transfer-encoding: chunked | " + BAD),
                decode("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + size + "\r\n"
                        + "0123456789abcdef\r\n0\r\n\r\n"));
    }

    @Test
    void s08_trailersNeverChangeTheFraming() {
        assertEquals(List.of("POST / HTTP/1.1 | host: a | transfer-encoding: chunked | body xy | trailers"
                        + " | X-Checksum: 50 | Server-Timing: x", "GET /next HTTP/1.1 | host: a"),
                decode("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n"
                        + "X-Checksum: 50\r\nServer-Timing: x\r\n\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: 50", "Transfer-Encoding: x", "content-length: 0", "TRANSFER-ENCODING: chunked"})
    void s08_framingFieldsInTheTrailerSectionAreRejected(String trailer) {
        // RFC 9110 §6.5.1; llhttp and h11 refuse them too (found by HttpDifferentialTest in testsuite/).
        assertRejected("POST / HTTP/1.1 | host: a | transfer-encoding: chunked | FAILED 400 HttpDecoderException | body xy",
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n" + trailer + "\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET 'x HTTP/1.1", "GET h/ttp://a/ HTTP/1.1", "GET 0/a HTTP/1.1", "GET a HTTP/1.1",
        "GET * HTTP/1.1", "GET -x://a/ HTTP/1.1", "GET ?x HTTP/1.1", "GET http://a\\@b/ HTTP/1.1", "GET http://a\"b/ HTTP/1.1",
        "GET http://a/{x} HTTP/1.1"})
    void s10_targetsInNoFormOfRfc9112AreRejected(String line) {
        // RFC 9112 §3.2: origin, absolute, authority (CONNECT) or asterisk (OPTIONS) form, nothing else.
        assertBadRequest(line + "\r\nHost: a\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET / HTTP/1.1", "GET http://a/x HTTP/1.1", "GET h2+x-y.z:opaque HTTP/1.1",
        "OPTIONS * HTTP/1.1", "CONNECT a:443 HTTP/1.1"})
    void s10_targetsInEachFormOfRfc9112AreRead(String line) {
        assertEquals(1, decode(line + "\r\nHost: a\r\n\r\n").size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET  / HTTP/1.1", "GET / HTTP/1.1 x", "GET / http/1.1", "GET / HTP/1.1", "GET / HTTP",
        "GET / HTTP/1x", "GET / HTTP/1", "GET / HTTP/1.11", "GET / HTTP/11.1", "GET / HTTP/A.1", "G@T / HTTP/1.1",
        "GET /caf\u00e9 HTTP/1.1", " / HTTP/1.1", "GET  HTTP/1.1"})
    void s10_malformedRequestLines(String line) {
        assertBadRequest(line + "\r\nHost: a\r\n\r\n");
    }

    @Test
    void s10_otherMajorVersionsAreAnswered505() {
        assertRejected("FAILED 505 HttpDecoderException", "GET / HTTP/2.0\r\nHost: a\r\n\r\n");
    }

    @Test
    void s11_http11NeedsExactlyOneHost() {
        assertBadRequest("GET / HTTP/1.1\r\n\r\n");
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n");
    }

    @Test
    void s11_http10MayOmitHostButNeverRepeatIt() {
        // RFC 9112 §3.2 "any request message that contains more than one Host"; h11 refuses it too (HttpDifferentialTest).
        assertBadRequest("GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n");
        assertEquals(List.of("GET / HTTP/1.0"), decode("GET / HTTP/1.0\r\n\r\n"));
    }

    @Test
    void s13_anH2cUpgradeRequestIsAnOrdinaryHttp11RequestWithItsBody() {
        // No upgrade is configured (Rill has no HTTP/2 yet): the request keeps HTTP/1.1 framing,
        // its body is read by its Content-Length, and what follows is the next request, not HTTP/2.
        assertEquals(List.of("POST / HTTP/1.1 | host: a | connection: Upgrade, HTTP2-Settings | upgrade: h2c"
                        + " | http2-settings: AAMAAABkAARAAAAAAAIAAAAA | content-length: 3 | body abc",
                        "GET /next HTTP/1.1 | host: a"),
                decode("POST / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                        + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nContent-Length: 3\r\n\r\nabc"
                        + "GET /next HTTP/1.1\r\nHost: a\r\n\r\n"));
    }

    @Test
    void l01_aRequestLineOverTheLimitIs414() {
        assertRejected("FAILED 414 TooLongHttpLineException", "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: a\r\n\r\n");
    }

    @Test
    void l02_l03_headerSectionsOverTheTotalLimitAre431() {
        assertRejected("FAILED 431 TooLongHttpHeaderException",
                "GET / HTTP/1.1\r\nHost: a\r\n" + ("X-a: " + "b".repeat(100) + "\r\n").repeat(100) + "\r\n");
        assertRejected("FAILED 431 TooLongHttpHeaderException", "GET / HTTP/1.1\r\nHost: a\r\n" + "a:\r\n".repeat(5_000) + "\r\n");
    }

    @Test
    void l04_aFloodOfEmptyLinesIsBoundedByTheLineLimit() {
        assertRejected("FAILED 414 TooLongHttpLineException", "\r\n".repeat(10_000) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    }
}
