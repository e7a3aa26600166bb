package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DateFormatter;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContentCompressor;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;

/** http-file-server, http-echo and http-client over real loopback sockets, raw requests so nothing normalises paths. */
class HttpExamplesSocketTest {

    @TempDir
    Path tmp;
    private LoopbackServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private int start(ChannelInitializer<Channel> initializer) throws Exception {
        server = new LoopbackServer(initializer);
        return server.port();
    }

    /** Sends {@code request} bytes as they are and reads until the server closes (requests say Connection: close). */
    private static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String get(int port, String target, String... headers) throws IOException {
        return exchange(port, "GET " + target + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n" + String.join("", headers) + "\r\n");
    }

    private Path site() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("www")).toRealPath();
        StringBuilder big = new StringBuilder();
        for (int i = 0; big.length() < 100_000; i++) {
            big.append(i).append('\n');
        }
        Files.writeString(root.resolve("big.txt"), big);
        Files.writeString(root.resolve("<b>&.html"), "x");
        Files.writeString(tmp.resolve("secret.txt"), "secret");
        return root;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void fileServerServesWholeRangedAndConditionalRequests(boolean chunked) throws Exception {
        Path root = site();
        String big = Files.readString(root.resolve("big.txt"));
        int port = start(HttpFileServer.initializer(root, chunked));

        String whole = get(port, "/big.txt");
        assertTrue(whole.startsWith("HTTP/1.1 200 "), whole.substring(0, 100));
        assertTrue(whole.endsWith("\r\n\r\n" + big), "body intact");
        assertTrue(whole.contains("content-length: " + big.length() + "\r\n"));

        String ranged = get(port, "/big.txt", "Range: bytes=10-19\r\n");
        assertTrue(ranged.startsWith("HTTP/1.1 206 "));
        assertTrue(ranged.contains("content-range: bytes 10-19/" + big.length() + "\r\n"));
        assertTrue(ranged.endsWith("\r\n\r\n" + big.substring(10, 20)));

        String past = get(port, "/big.txt", "Range: bytes=999999-\r\n");
        assertTrue(past.startsWith("HTTP/1.1 416 "));
        assertTrue(past.contains("content-range: bytes */" + big.length()));

        String lastModified = DateFormatter.format(Files.getLastModifiedTime(root.resolve("big.txt")).toMillis());
        assertTrue(get(port, "/big.txt", "If-Modified-Since: " + lastModified + "\r\n").startsWith("HTTP/1.1 304 "));
        assertTrue(get(port, "/big.txt", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n").startsWith("HTTP/1.1 200 "));

        String head = exchange(port, "HEAD /big.txt HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        assertTrue(head.endsWith("\r\n\r\n"), "no body after a HEAD");
    }

    @Test
    void fileServerListsDirectoriesEscapedAndRefusesTraversal() throws Exception {
        int port = start(HttpFileServer.initializer(site(), false));
        String listing = get(port, "/");
        assertTrue(listing.contains("<a href=\"%3Cb%3E%26.html\">&lt;b&gt;&amp;.html</a>"), listing);
        assertFalse(listing.contains("<b>&.html"));
        for (String target : new String[] {"/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%2E%2E%2Fsecret.txt"}) {
            String r = get(port, target);
            assertTrue(r.startsWith("HTTP/1.1 404 "), target + ": " + r);
            assertFalse(r.contains("secret\n") || r.endsWith("secret"), target);
        }
        assertTrue(exchange(port, "POST /big.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .startsWith("HTTP/1.1 405 "));
    }

    /** h11, a strict independent parser, reads every answer on one keep-alive connection. */
    @Test
    void h11AcceptsEveryByteTheFileServerSends() throws Exception {
        assumeTrue(new ProcessBuilder("python3", "-c", "import h11").start().waitFor() == 0, "python3 with h11 not installed");
        Path root = site();
        long size = Files.size(root.resolve("big.txt"));
        String since = DateFormatter.format(Files.getLastModifiedTime(root.resolve("big.txt")).toMillis());
        int port = start(HttpFileServer.initializer(root, false));
        String script = Path.of(getClass().getResource("/h11_file_client.py").toURI()).toString();
        Process p = new ProcessBuilder("python3", script, Integer.toString(port), since).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "h11 client did not finish");
        assertEquals(0, p.exitValue(), out);
        assertEquals(String.join("\n",
                "GET /big.txt 200 " + size + " -",
                "GET /big.txt 206 5 bytes 5-9/" + size,
                "HEAD /big.txt 200 0 -",
                "GET /big.txt 304 0 -",
                "GET /big.txt 416 0 bytes */" + size),
                out.strip().lines().limit(5).collect(java.util.stream.Collectors.joining("\n")));
        assertTrue(out.strip().lines().skip(5).findFirst().orElse("").startsWith("GET / 200 "), out);
    }

    @Test
    void echoServerEchoesAndTheClientExampleFetches() throws Exception {
        int port = start(HttpEchoServer.initializer());
        String echoed = exchange(port, "PUT /p?q=1 HTTP/1.1\r\nHost: t\r\nX-A: 1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello");
        // Known names come back as the decoder's lower-case constants.
        assertTrue(echoed.endsWith("PUT /p?q=1 HTTP/1.1\nhost: t\nX-A: 1\ncontent-length: 5\nconnection: close\n\nhello"), echoed);

        ExampleOptions options = ExampleOptions.parse(new String[] {"--transport", "nio"}, java.util.List.of());
        FullHttpResponse response = HttpClientExample.fetch(options,
                java.net.URI.create("http://127.0.0.1:" + port + "/from/client?x=%20"), 10, null);
        try {
            String text = HttpClientExample.render(response);
            assertTrue(text.startsWith("HTTP/1.1 200 OK\n"), text);
            assertTrue(text.contains("\nGET /from/client?x=%20 HTTP/1.1\nhost: 127.0.0.1:" + port + "\n"), text);
        } finally {
            response.release();
        }
    }

    /**
     * Issue 31: a page that gzips 1000:1 (4 MiB of spaces) is fetched whole, past the decompressor's
     * default ratio; one over the 16 MiB cap fails the fetch rather than coming back cut short.
     */
    @Test
    void theClientExampleFetchesAHighlyCompressiblePageAndRefusesOneOverItsCap() throws Exception {
        int port = start(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new HttpContentCompressor(), new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof HttpRequest request) {
                            int size = request.uri().equals("/huge") ? HttpClientExample.MAX_BODY + 1 : 4 << 20;
                            byte[] page = new byte[size];
                            java.util.Arrays.fill(page, (byte) ' ');
                            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.OK, Unpooled.wrappedBuffer(page));
                            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/html")
                                    .setInt(HttpHeaderNames.CONTENT_LENGTH, size);
                            ctx.writeAndFlush(response);
                        }
                        ReferenceCountUtil.release(msg);
                    }
                });
            }
        });
        ExampleOptions options = ExampleOptions.parse(new String[] {"--transport", "nio"}, java.util.List.of());
        FullHttpResponse response = HttpClientExample.fetch(options, java.net.URI.create("http://127.0.0.1:" + port + "/"), 10, null);
        try {
            assertEquals(4 << 20, response.content().readableBytes());
            assertEquals(null, response.headers().get(HttpHeaderNames.CONTENT_ENCODING), "decoded");
        } finally {
            response.release();
        }
        IllegalStateException tooBig = assertThrows(IllegalStateException.class, () -> HttpClientExample.fetch(options,
                java.net.URI.create("http://127.0.0.1:" + port + "/huge"), 10, null).release());
        assertTrue(tooBig.getMessage().contains("maxDecodedBytes"), tooBig.toString());
    }
}
