package io.rill.testsuite.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.LastHttpContent;

/**
 * Rill's HTTP/1.1 decoders against two independent strict parsers, llhttp (Node's) and h11
 * (Python's): a seeded sample of generated and mutated requests and responses, where every message
 * Rill accepts must be read the same way by at least one of them unless a known departure of the
 * others explains it; and one pinned input per known departure, each run through all three parsers
 * so that the reason stays true. {@code scripts/http-differential.sh} runs the full million.
 * Skipped when node or h11 is missing, except in CI ({@code .ci/run} installs both).
 */
// A net against a hung parser, not a speed bound: the sample takes about 10 s, but starved of CPU
// (load average 50 on two cores) h11 needed more than 5 minutes for 20,000 requests.
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class HttpDifferentialTest {

    /** One input that shows a departure of one parser: Rill reads it, that parser does not (or not the same way). */
    record Pin(String parser, String quirk, String requestMethod, String input) {
    }

    static final List<Pin> PINS = List.of(
            new Pin("llhttp", "extension method", "-", "FROB /x HTTP/1.1\r\nHost: a\r\n\r\n"),
            new Pin("llhttp", "whitespace around a Transfer-Encoding value", "-",
                    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\t\r\n\r\n0\r\n\r\n"),
            new Pin("llhttp", "whitespace around a Content-Length value", "-",
                    "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\t\r\n\r\nok"),
            new Pin("llhttp", "Upgrade taken", "-",
                    "GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n"),
            new Pin("llhttp", "HTTP/1.x above 1.1", "-", "GET / HTTP/1.5\r\nHost: a\r\n\r\n"),
            new Pin("llhttp", "whitespace in a chunk extension", "-",
                    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;name =value\r\nok\r\n0\r\n\r\n"),
            new Pin("llhttp", "a message after one that closes", "-",
                    "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"),
            new Pin("h11", "a message after one that closes", "-",
                    "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"),
            new Pin("h11", "empty line before a request line", "-", "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
            new Pin("h11", "Transfer-Encoding value lower-cased", "-",
                    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n"),
            new Pin("h11", "whitespace in a chunk extension", "-",
                    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\t;a=b\r\nok\r\n0\r\n\r\n"),
            new Pin("llhttp", "empty element in the Transfer-Encoding list", "-",
                    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked ,\r\n\r\n0\r\n\r\n"),
            new Pin("h11", "empty element in the Transfer-Encoding list", "-",
                    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: , chunked\r\n\r\n0\r\n\r\n"),
            new Pin("llhttp", "absolute URI its URL parser refuses", "-", "GET h0ttp://a/ HTTP/1.1\r\nHost: a\r\n\r\n"),
            new Pin("llhttp", "Connection: close in the trailer section", "-",
                    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nConnection: close\r\n\r\n"
                            + "GET /2 HTTP/1.1\r\nHost: a\r\n\r\n"),
            new Pin("h11", "HTTP/1.0 keep-alive", "-",
                    "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"),
            new Pin("h11", "half an empty line at the close", "-", "GET / HTTP/1.1\r\nHost: a\r\n\r\n\r"),
            new Pin("llhttp", "chunked with whitespace or an empty list element, in a response", "GET",
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\t\r\n\r\n2\r\nok\r\n0\r\n\r\n"),
            new Pin("llhttp", "a body on an unregistered 1xx", "GET",
                    "HTTP/1.1 104 X\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
            new Pin("h11", "transfer codings other than chunked in a response", "GET",
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nabc"),
            new Pin("h11", "empty line before a status line", "GET",
                    "HTTP/1.1 100 Continue\r\n\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
            new Pin("h11", "closed after interim responses", "GET", "HTTP/1.1 100 Continue\r\n\r\n"));

    private static List<String> llhttp;
    private static List<String> h11;

    @BeforeAll
    static void runThePinsThroughTheOtherParsers(@TempDir Path dir) throws Exception {
        requireTheOtherParsers();
        List<HttpCorpus.Entry> entries = new ArrayList<>();
        for (Pin p : PINS) {
            entries.add(entry(p));
        }
        Path corpus = dir.resolve("pins.txt");
        HttpCorpus.write(entries, corpus);
        Path scripts = HttpDifferential.scriptsDirectory();
        llhttp = run(List.of("node", scripts.resolve("llhttp-runner.js").toString(), corpus.toString()));
        h11 = run(List.of("python3", scripts.resolve("h11-runner.py").toString(), corpus.toString()));
        assertEquals(PINS.size(), llhttp.size(), String.join("\n", llhttp));
        assertEquals(PINS.size(), h11.size(), String.join("\n", h11));
    }

    @Test
    void twentyThousandRequestsHaveNoUnexplainedDisagreement() throws Exception {
        DifferentialReport report = HttpDifferential.run(HttpCorpus.Kind.REQUESTS, 1, 20_000, null);
        report.print(System.out, 2);
        assertEquals(0, report.unexplained(), "unexplained disagreements; the report above lists them");
        assertTrue(report.count(DifferentialReport.Category.AGREE_ALL) > 5_000, "most valid requests read alike by all three");
    }

    @Test
    void tenThousandResponsesHaveNoUnexplainedDisagreement() throws Exception {
        DifferentialReport report = HttpDifferential.run(HttpCorpus.Kind.RESPONSES, 1, 10_000, null);
        report.print(System.out, 2);
        assertEquals(0, report.unexplained(), "unexplained disagreements; the report above lists them");
        assertTrue(report.count(DifferentialReport.Category.AGREE_ALL) > 2_500, "most valid responses read alike by all three");
    }

    @Test
    void everyKnownDepartureIsPinnedAndStillHappens() {
        for (KnownDisagreements.Quirk q : KnownDisagreements.QUIRKS) {
            assertTrue(PINS.stream().anyMatch(p -> p.parser().equals(q.parser()) && p.quirk().equals(q.name())),
                    "no pinned input for " + q.parser() + ": " + q.name());
        }
        for (int i = 0; i < PINS.size(); i++) {
            Pin p = PINS.get(i);
            HttpCorpus.Entry e = entry(p);
            String rill = RillHttpRunner.run(e);
            String other = p.parser().equals("llhttp") ? llhttp.get(i) : h11.get(i);
            assertTrue(rill.startsWith("A "), p + " is read by Rill: " + rill);
            assertTrue(!other.equals(rill), p + " is read alike by " + p.parser() + " and Rill");
            KnownDisagreements.Quirk q = KnownDisagreements.quirk(p.parser(), new KnownDisagreements.Case(e, rill, other));
            assertNotNull(q, p + ": " + other);
            assertEquals(p.quirk(), q.name(), p + ": " + other);
        }
    }

    /** The claim behind "a message after one that closes": Rill's server never passes that request on. */
    @Test
    void aRequestAfterOneThatClosesIsNotPassedOn() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerKeepAliveHandler());
        ch.writeInbound(Unpooled.copiedBuffer(PINS.get(6).input(), StandardCharsets.ISO_8859_1));
        HttpRequest first = assertInstanceOf(HttpRequest.class, ch.readInbound());
        assertEquals("/", first.uri());
        ReferenceCountUtil.release(assertInstanceOf(LastHttpContent.class, ch.readInbound()));
        assertNull(ch.readInbound());
        ch.finishAndReleaseAll();
    }

    /** Rill refuses what both others refuse in the trailer section (it used to pass framing trailers on). */
    @Test
    void framingFieldsInTrailersAreRefusedByAllThree() {
        String input = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nContent-Length: 5\r\n\r\n";
        assertTrue(RillHttpRunner.run(new HttpCorpus.Entry("-", input.getBytes(StandardCharsets.ISO_8859_1))).startsWith("R "));
    }

    private static HttpCorpus.Entry entry(Pin p) {
        return new HttpCorpus.Entry(p.requestMethod(), p.input().getBytes(StandardCharsets.ISO_8859_1));
    }

    private static List<String> run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), command + " did not finish");
        assertEquals(0, p.exitValue(), command + " failed");
        return List.of(new String(out, StandardCharsets.ISO_8859_1).split("\n"));
    }

    /** Skips without node or h11, unless CI=true: there a missing parser is a failure. */
    private static void requireTheOtherParsers() throws Exception {
        boolean ci = "true".equals(System.getenv("CI"));
        boolean node = onPath("node");
        boolean python = onPath("python3") && new ProcessBuilder("python3", "-c", "import h11")
                .redirectErrorStream(true).start().waitFor() == 0;
        if (ci) {
            assertTrue(node, "node (llhttp) is not installed; .ci/run installs it");
            assertTrue(python, "python3 with h11 is not installed; .ci/run installs it");
        }
        assumeTrue(node, "node (llhttp) is not installed");
        assumeTrue(python, "python3 with h11 is not installed");
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
