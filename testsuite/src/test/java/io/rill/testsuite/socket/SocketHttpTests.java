package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpDecoderConfig;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * HTTP/1.1 over a real transport: Rill's client and server, keep-alive and pipelining, smuggling
 * attempts answered 400 and closed, and real peers — curl, Python's http.client and h11 (a strict
 * parser that checks every byte Rill sends). External peers run on TCP and Unix-domain sockets
 * where they can, and skip themselves when not installed.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
abstract class SocketHttpTests extends AbstractSocketTest {

    private static final int MAX_BODY = 1 << 20;

    /** Hello for GET/HEAD, echo for POST /echo, 405 otherwise. */
    @ChannelHandler.Sharable
    static final class TestApp implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpRequest request = (FullHttpRequest) msg;
            try {
                HttpMethod m = request.method();
                FullHttpResponse response;
                if (m.equals(HttpMethod.POST) && request.uri().equals("/echo")) {
                    response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                            request.content().retain());
                } else if (m.equals(HttpMethod.GET) || m.equals(HttpMethod.HEAD)) {
                    response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                            Unpooled.copiedBuffer("Hello, World!", StandardCharsets.US_ASCII));
                    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
                } else {
                    response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.METHOD_NOT_ALLOWED);
                }
                ctx.write(response);
            } finally {
                request.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    private Channel startHttpServer() {
        return startServer(appPipeline(MAX_BODY));
    }

    /** Each connection: the server codec, keep-alive, an aggregator of {@code maxBody} and one shared {@link TestApp}. */
    static ChannelInitializer<Channel> appPipeline(int maxBody) {
        TestApp app = new TestApp();
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                        new HttpObjectAggregator(maxBody), app);
            }
        };
    }

    /** A Rill HTTP client connected to {@code server}; responses land in the returned queue. */
    private Channel httpClient(Channel server, BlockingQueue<FullHttpResponse> responses) {
        return connect(server, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_BODY), new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        responses.add((FullHttpResponse) msg);
                    }
                });
            }
        });
    }

    private static FullHttpRequest request(HttpMethod method, String uri, ByteBuf body) {
        FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri, body);
        r.headers().set(HttpHeaderNames.HOST, "test");
        return r;
    }

    @Test
    void keepAliveRequestsAndBodiesOfManySizesTravelBothWays() throws Exception {
        Channel server = startHttpServer();
        BlockingQueue<FullHttpResponse> responses = new LinkedBlockingQueue<>();
        Channel client = httpClient(server, responses);
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            byte[] body = new byte[i == 0 ? 0 : random.nextInt(i < 10 ? 2000 : 200_000)];
            random.nextBytes(body);
            await(client.writeAndFlush(request(HttpMethod.POST, "/echo", Unpooled.wrappedBuffer(body))));
            FullHttpResponse response = take(responses);
            try {
                assertEquals(200, response.status().code());
                byte[] got = new byte[response.content().readableBytes()];
                response.content().readBytes(got);
                assertArrayEquals(body, got, "echo of " + body.length + " bytes");
            } finally {
                response.release();
            }
        }
        assertTrue(client.isActive(), "one connection served them all");
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        Channel server = startHttpServer();
        BlockingQueue<FullHttpResponse> responses = new LinkedBlockingQueue<>();
        Channel client = httpClient(server, responses);
        for (int i = 0; i < 50; i++) {
            client.write(request(i % 2 == 0 ? HttpMethod.GET : HttpMethod.POST, "/echo",
                    Unpooled.copiedBuffer("#" + i, StandardCharsets.US_ASCII)));
        }
        client.flush();
        for (int i = 0; i < 50; i++) {
            FullHttpResponse response = take(responses);
            try {
                assertEquals(i % 2 == 0 ? "Hello, World!" : "#" + i, response.content().toString(StandardCharsets.US_ASCII));
            } finally {
                response.release();
            }
        }
    }

    @Test
    void l06_slowlorisConnectionsAreClosedAtTheHeadTimeoutWhileOtherClientsAreServed() throws Exception {
        Channel server = startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(HttpDecoderConfig.DEFAULT,
                        HttpServerCodec.DEFAULT_MAX_PENDING_REQUESTS, Duration.ofMillis(400)),
                        new HttpObjectAggregator(MAX_BODY), new TestApp());
            }
        });
        byte[] head = ("GET / HTTP/1.1\r\nHost: a\r\n" + "X-a: b\r\n".repeat(20) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        List<Channel> slow = new ArrayList<>();
        AtomicInteger sent = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            Channel ch = connect(server, new ByteCollector());
            slow.add(ch);
            // A byte every 50 ms, from the client's own loop: the head would take 10 s to arrive.
            ScheduledFuture<?> trickle = ch.eventLoop().scheduleAtFixedRate(() -> {
                int at = sent.getAndIncrement() % head.length;
                ch.writeAndFlush(Unpooled.wrappedBuffer(head, at, 1));
            }, 0, 50, TimeUnit.MILLISECONDS);
            ch.closeFuture().addListener(f -> trickle.cancel(false));
        }
        BlockingQueue<FullHttpResponse> responses = new LinkedBlockingQueue<>();
        Channel client = httpClient(server, responses);
        for (int i = 0; i < 5; i++) {
            await(client.writeAndFlush(request(HttpMethod.GET, "/", Unpooled.EMPTY_BUFFER)));
            FullHttpResponse response = take(responses);
            assertEquals(200, response.status().code(), "a well-behaved client is served meanwhile");
            response.release();
        }
        for (Channel ch : slow) {
            await(ch.closeFuture());
        }
        assertTrue(sent.get() < 10 * head.length, "cut off before any head was complete: " + sent.get() + " bytes");
    }

    @Test
    void s13_anH2cUpgradeIsNotTakenAndTheRequestIsAnsweredInHttp11() throws Exception {
        Channel server = startHttpServer();
        ByteCollector received = new ByteCollector();
        Channel raw = connect(server, received);
        String response = "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";
        await(raw.writeAndFlush(Unpooled.copiedBuffer("POST /echo HTTP/1.1\r\nHost: a\r\n"
                + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n"
                + "Content-Length: 5\r\n\r\nhello", StandardCharsets.US_ASCII)));
        String answer = new String(received.await(response.length()), StandardCharsets.US_ASCII);
        assertEquals(response, answer, "no 101: the upgrade is only taken when configured");
        assertTrue(raw.isActive(), "the connection stays an HTTP/1.1 one");
    }

    @Test
    void smugglingAttemptsAreAnswered400AndClosedAndTheSmuggledRequestIsNeverServed() throws Exception {
        Channel server = startHttpServer();
        for (String attack : List.of(
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "POST / HTTP/1.1\r\nHost: l\r\nTransfer-Encoding: chunked\r\n\r\n100000004\r\ntest\r\n0\r\n\r\n",
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 0\r\n\r\nb",
                "POST /api HTTP/1.0\r\nHost: i\r\nTransfer-Encoding: chunked\r\nContent-Length: 30\r\n\r\n0\r\n\r\n")) {
            ByteCollector received = new ByteCollector();
            Channel raw = connect(server, received);
            await(raw.writeAndFlush(Unpooled.copiedBuffer(attack + "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n",
                    StandardCharsets.US_ASCII)));
            await(raw.closeFuture());
            String answer = new String(received.await(received.size()), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
            assertEquals(answer.indexOf("HTTP/1.1"), answer.lastIndexOf("HTTP/1.1"), "exactly one response: " + answer);
        }
    }

    @Test
    void curlKeepsTheConnectionUploadsChunkedExpectsContinueAndReadsHead() throws Exception {
        ExternalPeer.require("curl");
        Channel server = startHttpServer();
        List<String> base = Curl.base(server.localAddress());
        ExternalPeer.Result twoOnOne = ExternalPeer.run(Curl.concat(base, "-v", Curl.url(server, "/a"), Curl.url(server, "/b")), null);
        assertEquals(0, twoOnOne.exitCode(), twoOnOne.output());
        assertEquals(2, twoOnOne.output().split("Hello, World!", -1).length - 1, twoOnOne.output());
        assertTrue(twoOnOne.output().toLowerCase().contains("re-us"), "curl reused the connection: " + twoOnOne.output());

        byte[] upload = new byte[300_000];
        new Random(3).nextBytes(upload);
        Path file = Files.createTempFile("rill-upload", ".bin");
        try {
            Files.write(file, upload);
            for (List<String> extra : List.of(List.of("-H", "Transfer-Encoding: chunked"), List.of("-H", "Expect: 100-continue"))) {
                Path out = Files.createTempFile("rill-echo", ".bin");
                List<String> cmd = new ArrayList<>(base);
                cmd.addAll(extra);
                cmd.addAll(List.of("--data-binary", "@" + file, "-o", out.toString(), Curl.url(server, "/echo")));
                ExternalPeer.Result r = ExternalPeer.run(cmd, null);
                assertEquals(0, r.exitCode(), r.output());
                assertArrayEquals(upload, Files.readAllBytes(out), "echo with " + extra);
                Files.delete(out);
            }
        } finally {
            Files.delete(file);
        }
        ExternalPeer.Result head = ExternalPeer.run(Curl.concat(base, "-I", Curl.url(server, "/")), null);
        assertTrue(head.output().startsWith("HTTP/1.1 200 OK"), head.output());
        assertTrue(head.output().toLowerCase().contains("content-length: 13"), head.output());
    }

    @Test
    void pythonHttpClientKeepsTheConnection() throws Exception {
        ExternalPeer.require("python3");
        Channel server = startHttpServer();
        assumeTrue(server.localAddress() instanceof InetSocketAddress, "http.client speaks TCP only");
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        String script = String.join("\n",
                "import http.client",
                "c = http.client.HTTPConnection('127.0.0.1', " + port + ", timeout=10)",
                "for i in range(5):",
                "    c.request('POST', '/echo', body=b'ping%d' % i)",
                "    r = c.getresponse()",
                "    assert r.status == 200 and r.read() == b'ping%d' % i",
                "c.request('GET', '/')",
                "r = c.getresponse()",
                "print(r.status, r.read().decode(), r.getheader('Content-Length'))");
        ExternalPeer.Result r = ExternalPeer.run(List.of("python3", "-c", script), null);
        assertEquals(0, r.exitCode(), r.output());
        assertEquals("200 Hello, World! 13", r.output().strip());
    }

    @Test
    void h11FindsNothingWrongInAnyByteRillSends() throws Exception {
        ExternalPeer.requirePythonModule("h11");
        Channel server = startHttpServer();
        Path script = Files.createTempFile("h11_check", ".py");
        try (var in = SocketHttpTests.class.getResourceAsStream("/h11_check.py")) {
            Files.write(script, in.readAllBytes());
        }
        try {
            SocketAddress address = server.localAddress();
            assumeTrue(address instanceof InetSocketAddress || address instanceof UnixDomainSocketAddress,
                    "h11 needs a socket");
            List<String> cmd = address instanceof UnixDomainSocketAddress unix
                    ? List.of("python3", script.toString(), "unix", unix.getPath().toString())
                    : List.of("python3", script.toString(), "tcp", "127.0.0.1",
                            Integer.toString(((InetSocketAddress) address).getPort()));
            ExternalPeer.Result r = ExternalPeer.run(cmd, null);
            assertEquals(0, r.exitCode(), r.output());
            assertTrue(r.output().strip().endsWith("OK"), r.output());
        } finally {
            Files.delete(script);
        }
    }

    @Test
    void rillsClientReadsFromPythonsHttpServer() throws Exception {
        ExternalPeer.require("python3");
        assumeTrue(transport.isInet(), "Python's http.server listens on TCP");
        Path root = Files.createTempDirectory("rill-http-root");
        byte[] content = new byte[100_000];
        new Random(11).nextBytes(content);
        Files.write(root.resolve("data.bin"), content);
        Process python = new ProcessBuilder("python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                "--directory", root.toString()).redirectErrorStream(true).start();
        try {
            int port = ExternalPeer.awaitPort(python, "port ");
            Channel client = new io.rill.bootstrap.Bootstrap().group(group).channelFactory(transport.clientChannel())
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_BODY),
                                    new ChannelHandler() {
                                        @Override
                                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                            responses.add((FullHttpResponse) msg);
                                        }
                                    });
                        }
                    }).connect(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().getNow();
            track(client);
            await(client.writeAndFlush(request(HttpMethod.GET, "/data.bin", Unpooled.EMPTY_BUFFER)));
            FullHttpResponse response = take(responses);
            try {
                assertEquals(200, response.status().code());
                byte[] got = new byte[response.content().readableBytes()];
                response.content().readBytes(got);
                assertArrayEquals(content, got);
            } finally {
                response.release();
            }
        } finally {
            python.destroy();
            python.waitFor();
            Files.delete(root.resolve("data.bin"));
            Files.delete(root);
        }
    }

    private final BlockingQueue<FullHttpResponse> responses = new LinkedBlockingQueue<>();

}
