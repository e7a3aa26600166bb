package io.rill.handler.codec.http2;

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

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;

/**
 * curl against h2c on one port: the upgrade with a request body ({@code --http2}), prior
 * knowledge ({@code --http2-prior-knowledge}) and plain HTTP/1.1; and against TLS with ALPN, h2
 * or http/1.1. The server runs HPACK and a stream channel per stream, as in production. Skipped
 * when curl is missing or built without HTTP/2.
 */
class Http2CurlInteropTest {

    @TempDir
    static Path dir;

    /** The server's HTTP/2 codec, with HPACK as curl speaks it. */
    static Http2FrameCodec serverCodec() {
        return Http2FrameCodec.forServer().build();
    }

    @BeforeAll
    static void curlSpeaksHttp2() throws Exception {
        List<String> version;
        try {
            version = run(List.of("curl", "-V"));
        } catch (IOException e) {
            version = List.of();
        }
        assumeTrue(String.join("\n", version).contains("HTTP2"), "curl with HTTP/2 support is not installed");
    }

    private static void pipeline(Channel ch) {
        ch.pipeline().addLast(new CleartextHttpProtocolDetector(Http2CurlInteropTest::serverCodec,
                Http2CleartextLoopbackTest::multiplexedEcho, () -> new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel c) {
                        c.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                new Http2ServerUpgradeHandler(Http2CurlInteropTest::serverCodec, Http2CleartextLoopbackTest::multiplexedEcho),
                                new Http1EchoHandler());
                    }
                }));
    }

    @Test
    void curlUpgradesWithABodyAndGetsTheAnswerOverHttp2() throws Exception {
        Path body = Files.writeString(dir.resolve("body.txt"), "b".repeat(10_000));
        try (LoopbackServer server = new LoopbackServer(Http2CurlInteropTest::pipeline)) {
            String url = "http://127.0.0.1:" + server.port() + "/echo";
            List<String> out = run(List.of("curl", "-m", "15", "-sS", "-i", "--http2", "--data-binary", "@" + body, url));
            String text = String.join("\n", out);
            assertTrue(out.get(0).startsWith("HTTP/1.1 101"), text);
            assertTrue(text.contains("HTTP/2 200"), text);
            assertTrue(text.endsWith("POST /echo host=127.0.0.1:" + server.port() + "\n" + "b".repeat(10_000)), text);
        }
    }

    @Test
    void curlWithPriorKnowledgeAndCurlInHttp11ShareThePort() throws Exception {
        try (LoopbackServer server = new LoopbackServer(Http2CurlInteropTest::pipeline)) {
            String url = "http://127.0.0.1:" + server.port() + "/pk";
            List<String> h2 = run(List.of("curl", "-m", "15", "-sS", "-i", "--http2-prior-knowledge", url));
            assertTrue(h2.get(0).startsWith("HTTP/2 200"), h2.toString());
            assertEquals("GET /pk host=127.0.0.1:" + server.port(), h2.get(h2.size() - 1));
            List<String> h1 = run(List.of("curl", "-m", "15", "-sS", "-i", "--http1.1", url));
            assertTrue(h1.get(0).startsWith("HTTP/1.1 200"), h1.toString());
            // HEAD: the HTTP/1 handler writes a body anyway; the stream ends with the head and keeps its length.
            List<String> head = run(List.of("curl", "-m", "15", "-sS", "-I", "--http2-prior-knowledge", url));
            assertTrue(head.get(0).startsWith("HTTP/2 200"), head.toString());
            assertTrue(head.contains("content-length: " + ("HEAD /pk host=127.0.0.1:" + server.port() + "\n").length()),
                    head.toString());
        }
    }

    @Test
    void curlOverTlsGetsH2ByAlpnOrHttp11WhenItAsks() throws Exception {
        try (io.rill.handler.ssl.SslContext tls = HttpAlpnNegotiationHandler.offerH2AndHttp11(
                io.rill.handler.ssl.SslContextBuilder.forServer(Http2AlpnLoopbackTest.CERT.key(),
                        Http2AlpnLoopbackTest.CERT.certificate())).build();
             LoopbackServer server = new LoopbackServer(ch -> HttpAlpnNegotiationHandler.addServerHandlers(ch, tls,
                     Http2CurlInteropTest::serverCodec, Http2CleartextLoopbackTest::multiplexedEcho,
                     () -> new ChannelInitializer<>() {
                         @Override
                         protected void initChannel(Channel c) {
                             c.pipeline().addLast(new HttpServerCodec(), new Http1EchoHandler());
                         }
                     }))) {
            String url = "https://127.0.0.1:" + server.port() + "/tls";
            List<String> h2 = run(List.of("curl", "-m", "15", "-sS", "-i", "-k", "--http2", url));
            assertTrue(h2.get(0).startsWith("HTTP/2 200"), h2.toString());
            assertEquals("GET /tls host=127.0.0.1:" + server.port(), h2.get(h2.size() - 1));
            List<String> h1 = run(List.of("curl", "-m", "15", "-sS", "-i", "-k", "--http1.1", url));
            assertTrue(h1.get(0).startsWith("HTTP/1.1 200"), h1.toString());
        }
    }

    /** Runs a command to completion (at most 20 s) and returns its standard output's lines. */
    private static List<String> run(List<String> command) throws Exception {
        File err = Files.createTempFile("curl", ".err").toFile();
        Process process = new ProcessBuilder(command).redirectError(err).start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish in 20 s");
        }
        String stderr = Files.readString(err.toPath());
        err.delete();
        if (process.exitValue() != 0) {
            throw new AssertionError(command + " exited with " + process.exitValue() + ": " + stderr);
        }
        return new ArrayList<>(new String(out, StandardCharsets.UTF_8).replace("\r", "").lines().toList());
    }
}
