package io.rill.testsuite.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.SimpleChannelInboundHandler;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContentCompressor;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http2.HttpAlpnNegotiationHandler;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.util.SelfSignedCertificate;
import io.rill.util.concurrent.Promise;

/**
 * The three Netty examples the migration guide ports (HTTP/2 hello world with a child channel per
 * stream, the WebSocket server with its index page, the HTTP snoop client) are compiled from the
 * guide's own blocks and run over real sockets: the HTTP/2 server against curl, the WebSocket server
 * against the JDK's WebSocket client and Python's {@code websockets}, the snoop client against a Rill
 * HTTP server. They are written as a Netty user would write them, on NIO, so they run on NIO only;
 * the transports themselves are covered by the socket suite. A test whose outside tool is missing is
 * skipped; {@code .ci/run} installs them.
 */
class GuidePortsTest {

    private static final Class<?>[] START = {EventLoopGroup.class, int.class, SslContext.class};

    @TempDir
    Path classes;

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    private final List<SslContext> contexts = new ArrayList<>();

    @AfterEach
    void shutDown() throws Exception {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).toCompletableFuture().get(10, TimeUnit.SECONDS);
        contexts.forEach(SslContext::close);
    }

    @Test
    void http2HelloWorldAnswersPriorKnowledgeTheH2cUpgradeAndHttp11() throws Exception {
        requireOnPath("curl");
        Channel server = startGuideServer("Http2Server", null);
        String url = "http://127.0.0.1:" + port(server) + "/";

        assertEquals("Hello World - via HTTP/2 [2]", curl("--http2-prior-knowledge", url));
        assertEquals("Hello World - via HTTP/2 [2]", curl("--http2", url), "the h2c upgrade");
        assertEquals("posted [2]", curl("--http2-prior-knowledge", "--data-binary", "posted", url),
                "the last DATA frame is echoed");
        assertEquals("Hello World - via HTTP/1.1 (Direct. No Upgrade Attempted.) [1.1]", curl("--http1.1", url));
    }

    @Test
    void http2HelloWorldChoosesH2OrHttp11ByAlpn() throws Exception {
        requireOnPath("curl");
        SelfSignedCertificate certificate = new SelfSignedCertificate();
        SslContext tls = HttpAlpnNegotiationHandler.offerH2AndHttp11(
                SslContextBuilder.forServer(certificate.certificateFile(), certificate.privateKeyFile())).build();
        contexts.add(tls);
        Channel server = startGuideServer("Http2Server", tls);
        String url = "https://127.0.0.1:" + port(server) + "/";

        assertEquals("Hello World - via HTTP/2 [2]", curl("-k", "--http2", url));
        assertEquals("Hello World - via HTTP/1.1 (ALPN Negotiation) [1.1]", curl("-k", "--http1.1", url));
    }

    @Test
    void webSocketServerServesItsPageAndAnswersInUpperCase() throws Exception {
        Channel server = startGuideServer("WebSocketServer", null);
        int port = port(server);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("new WebSocket(\"ws://127.0.0.1:" + port + "/websocket\")"), page.body());
        HttpResponse<String> missing = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/favicon.ico")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, missing.statusCode());

        CompletableFuture<String> answer = new CompletableFuture<>();
        WebSocket ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/websocket"), new WebSocket.Listener() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
                        text.append(data);
                        if (last) {
                            answer.complete(text.toString());
                        }
                        socket.request(1);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        ws.sendText("Hello, Rill", true).get(10, TimeUnit.SECONDS);
        assertEquals("HELLO, RILL", answer.get(10, TimeUnit.SECONDS));
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
    }

    @Test
    void webSocketServerCompressesForAClientThatOffersPermessageDeflate() throws Exception {
        requirePythonModule("websockets");
        Channel server = startGuideServer("WebSocketServer", null);
        String script = String.join("\n",
                "import asyncio, sys",
                "from websockets.asyncio.client import connect",
                "async def main():",
                "    async with connect(sys.argv[1]) as ws:",
                "        await ws.send('compressed ' * 200)",
                "        answer = await ws.recv()",
                "        print(ws.response.headers.get('Sec-WebSocket-Extensions'))",
                "        print(answer == 'COMPRESSED ' * 200)",
                "asyncio.run(main())");
        String out = run(List.of("python3", "-c", script, "ws://127.0.0.1:" + port(server) + "/websocket"));
        assertEquals("permessage-deflate\nTrue", out.strip());
    }

    @Test
    void snoopClientPrintsTheGzippedAnswerOfARillServerDecompressed() throws Exception {
        AtomicReference<String> sentEncoding = new AtomicReference<>();
        Channel server = startSnoopedServer(null, sentEncoding);
        Class<?> client = GuidePrograms.load("HttpSnoopClient", classes);

        String out = runSnoopClient(client, URI.create("http://127.0.0.1:" + port(server) + "/snoop"), null);

        assertTrue(out.startsWith("STATUS: 200 OK\nVERSION: HTTP/1.1\n\n"), out);
        assertTrue(out.contains("HEADER: x-snooped-path = /snoop\n"), out);
        assertFalse(out.contains("content-encoding"), "the decompressor removes it: " + out);
        assertTrue(out.contains("CHUNKED CONTENT {\n" + SnoopedHandler.body("my-cookie=foo; another-cookie=bar")
                + "} END OF CONTENT\n"), out);
        assertEquals("gzip", sentEncoding.get(), "the server compressed the answer on the wire");
    }

    @Test
    void snoopClientChecksTheServerCertificateAndTrustsAGivenPemFile() throws Exception {
        SelfSignedCertificate certificate = new SelfSignedCertificate();
        SslContext tls = SslContextBuilder.forServer(certificate.certificateFile(), certificate.privateKeyFile()).build();
        contexts.add(tls);
        Channel server = startSnoopedServer(tls, new AtomicReference<>());
        Class<?> client = GuidePrograms.load("HttpSnoopClient", classes);
        URI uri = URI.create("https://localhost:" + port(server) + "/tls");

        String trusted = runSnoopClient(client, uri, certificate.certificateFile());
        assertTrue(trusted.startsWith("STATUS: 200 OK"), trusted);
        assertTrue(trusted.contains("} END OF CONTENT"), trusted);

        String untrusted = runSnoopClient(client, uri, null);
        assertFalse(untrusted.contains("STATUS:"), "the JDK's roots do not hold a self-signed certificate: " + untrusted);
        assertTrue(untrusted.contains("SSLHandshakeException"), untrusted);
    }

    // ---------------------------------------------------------------- helpers

    private Channel startGuideServer(String program, SslContext tls) throws Exception {
        return (Channel) GuidePrograms.call(GuidePrograms.load(program, classes), "start", START, group, 0, tls);
    }

    private static int port(Channel server) {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** The snoop client in a thread of its own (it blocks until the response ended), with what it printed. */
    private static String runSnoopClient(Class<?> client, URI uri, File trust) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            thread.submit(() -> GuidePrograms.call(client, "run", new Class<?>[] {URI.class, File.class, PrintStream.class},
                    uri, trust, out)).get(30, TimeUnit.SECONDS);
        } finally {
            thread.shutdownNow();
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    /**
     * A Rill server for the snoop client: it answers with the request's cookies in a body large
     * enough to be compressed, and records the {@code Content-Encoding} the answer left with.
     */
    private Channel startSnoopedServer(SslContext tls, AtomicReference<String> sentEncoding) throws Exception {
        return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new HttpServerCodec(), new EncodingRecorder(sentEncoding),
                                new HttpContentCompressor(), new HttpServerKeepAliveHandler(),
                                new HttpObjectAggregator(8192), new SnoopedHandler());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
    }

    /** Sees responses after the compressor: the encoding they go out with. */
    private static final class EncodingRecorder implements ChannelHandler {
        private final AtomicReference<String> encoding;

        EncodingRecorder(AtomicReference<String> encoding) {
            this.encoding = encoding;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
            if (msg instanceof io.rill.handler.codec.http.HttpResponse response) {
                encoding.set(response.headers().get(HttpHeaderNames.CONTENT_ENCODING));
            }
            ctx.write(msg, promise);
        }
    }

    private static final class SnoopedHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        /** Longer than the compressor's minimum body size, 1 KiB. */
        static String body(String cookies) {
            return ("cookies: " + cookies + "\n").repeat(64);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            byte[] body = body(request.headers().get(HttpHeaderNames.COOKIE)).getBytes(StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set("x-snooped-path", request.uri());
            ctx.writeAndFlush(response);
        }
    }

    /** curl's body followed by " [" + the HTTP version it used + "]". */
    private static String curl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20", "-w", " [%{http_version}]"));
        command.addAll(List.of(args));
        return run(command);
    }

    private static void requireOnPath(String command) {
        boolean found = false;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            found |= Files.isExecutable(Path.of(dir, command));
        }
        assumeTrue(found, command + " is not installed");
    }

    private static void requirePythonModule(String module) throws Exception {
        requireOnPath("python3");
        Process p = new ProcessBuilder("python3", "-c", "import " + module).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "python3 module " + module + " is not installed");
    }

    /** Runs {@code command} for at most 30 s; its output (stderr merged), failing the test if it exits non-zero. */
    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        assertTrue(done, command + " did not finish in 30 s");
        assertEquals(0, p.exitValue(), command + " failed:\n" + out);
        return out;
    }
}
