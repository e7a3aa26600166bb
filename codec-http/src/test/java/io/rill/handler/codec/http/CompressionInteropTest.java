package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.CompressionTestSupport.gunzip;
import static io.rill.handler.codec.http.CompressionTestSupport.gzip;
import static io.rill.handler.codec.http.CompressionTestSupport.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Real clients against a loopback server with the compressor and decompressor: curl
 * {@code --compressed} downloads, a gzip upload and a bomb upload refused with 413; h11 (a strict
 * Python parser) checking the framing of compressed full and streamed responses. Each part is
 * skipped where its tool is missing.
 */
class CompressionInteropTest {

    private static final byte[] PAGE = text(20_000);
    private static LoopbackHttpServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        server = new LoopbackHttpServer(() -> new ChannelHandler[] {new HttpServerCodec(), new HttpContentCompressor(),
                HttpContentDecompressor.builder().maxDecodedBytes(1 << 20).build(), new HttpObjectAggregator(2 << 20),
                new Answer()});
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** GET: the page; POST: the length of the decoded body, as text. */
    private static final class Answer implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpRequest req = (FullHttpRequest) msg;
            if (req.uri().equals("/stream")) {
                req.release();
                stream(ctx);
                return;
            }
            byte[] body = req.method().equals(HttpMethod.POST)
                    ? ("got " + req.content().readableBytes()).getBytes(StandardCharsets.US_ASCII) : PAGE;
            boolean failed = req.decoderResult().isFailure();
            req.release();
            if (failed) {
                return; // the decompressor answered already
            }
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain").setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            ctx.writeAndFlush(r);
        }
    }

    /** The page in three pieces with no length: compressed as a chunked stream. */
    private static void stream(ChannelHandlerContext ctx) {
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
        HttpUtil.setTransferEncodingChunked(head, true);
        int third = PAGE.length / 3;
        ctx.write(head);
        ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(PAGE, 0, third)));
        ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(PAGE, third, third)));
        ctx.writeAndFlush(new DefaultLastHttpContent(Unpooled.wrappedBuffer(PAGE, 2 * third, PAGE.length - 2 * third)));
    }

    private static String curl(String... args) throws IOException, InterruptedException {
        assumeTrue(new File("/usr/bin/curl").canExecute() || new File("/bin/curl").canExecute(), "curl not installed");
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(15, TimeUnit.SECONDS), cmd.get(0) + " did not finish");
        assertEquals(0, p.exitValue(), new String(out, StandardCharsets.ISO_8859_1));
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /**
     * curl offers {@code deflate, gzip, br, zstd}: the server's preference picks zstd; asked for one
     * coding at a time, curl gets that one, and decodes each to the page.
     */
    @Test
    void curlCompressedGetsTheSamePageInEachCoding() throws Exception {
        Path headers = dir.resolve("h");
        Path page = dir.resolve("page");
        curl("--compressed", "-D", headers.toString(), "-o", page.toString(), server.url("/"));
        assertTrue(Files.readString(headers).toLowerCase().contains("content-encoding: zstd"), Files.readString(headers));
        assertArrayEquals(PAGE, Files.readAllBytes(page));
        for (String coding : new String[] {"gzip", "br", "zstd", "deflate"}) {
            String got = curl("--compressed", "-H", "Accept-Encoding: " + coding, "-o", page.toString(),
                    "-w", "%header{content-encoding}", server.url("/"));
            assertEquals(coding, got);
            assertArrayEquals(PAGE, Files.readAllBytes(page), coding);
        }
        Path raw = dir.resolve("raw");
        curl("-H", "Accept-Encoding: gzip", "-o", raw.toString(), server.url("/"));
        byte[] wire = Files.readAllBytes(raw);
        assertTrue(wire.length < PAGE.length / 3, "compressed to " + wire.length);
        assertArrayEquals(PAGE, gunzip(wire));
    }

    @Test
    void curlCompressedReadsAStreamedChunkedResponse() throws Exception {
        Path headers = dir.resolve("h");
        Path page = dir.resolve("page");
        curl("--compressed", "-D", headers.toString(), "-o", page.toString(), server.url("/stream"));
        String h = Files.readString(headers).toLowerCase();
        assertTrue(h.contains("content-encoding: zstd") && h.contains("transfer-encoding: chunked"), h);
        assertArrayEquals(PAGE, Files.readAllBytes(page));
    }

    /** h11 reads both (asking for gzip only) responses on one connection: lengths and chunk framing right, gzip streams complete. */
    @Test
    void h11ParsesCompressedFullAndStreamedResponses() throws Exception {
        assumeTrue(new ProcessBuilder("python3", "-c", "import h11").start().waitFor() == 0, "python3 with h11 not installed");
        String script = Path.of(CompressionInteropTest.class.getResource("/h11_compressed_client.py").toURI()).toString();
        String out = run(List.of("python3", script, server.url("").replaceAll(".*:", ""), "/", "/stream"));
        String[] lines = out.strip().split("\n");
        assertEquals(2, lines.length, out);
        assertTrue(lines[0].matches("200 gzip - \\d+ " + PAGE.length), lines[0]);
        assertTrue(lines[1].matches("200 gzip chunked \\d+ " + PAGE.length), lines[1]);
    }

    @Test
    void curlUploadsAGzipBodyThatIsDecodedAndABombThatIs413() throws Exception {
        Path upload = dir.resolve("up.gz");
        Files.write(upload, gzip(PAGE));
        assertEquals("got " + PAGE.length, curl("-H", "Content-Encoding: gzip", "--data-binary", "@" + upload,
                server.url("/up")));
        Files.write(upload, gzip(new byte[16 << 20]));
        String out = curl("-H", "Content-Encoding: gzip", "--data-binary", "@" + upload, "-o", "/dev/null",
                "-w", "%{http_code}", server.url("/up"));
        assertEquals("413", out);
    }
}
