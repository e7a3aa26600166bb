package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2GoAwayFrame;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.handler.codec.http2.Http2ServerBudget;
import io.rill.handler.codec.http2.Http2StreamChannelBootstrap;
import io.rill.handler.codec.http2.Http2WindowUpdateFrame;

/**
 * HTTP/2 over a real transport: Rill's client and server codecs with each other, and real peers
 * (curl, nghttp, h2load) against Rill's server; bodies larger than every window, so flow control
 * works end to end; and an attacker cut off while another client goes on being served.
 */
abstract class SocketHttp2Tests extends AbstractSocketTest {

    @TempDir
    Path dir;

    /** GET: hello; POST /echo: the body, echoed as it arrives, credit returned as the echo leaves. */
    static final class Http2App implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h && h.headers().method() != null) {
                boolean echo = "/echo".contentEquals(String.valueOf(h.headers().path()));
                ctx.write(new Http2HeadersFrame(h.streamId(), new Http2Headers().status("200"), echo && h.endStream()));
                if (!echo) {
                    ctx.write(new Http2DataFrame(h.streamId(), Unpooled.copiedBuffer("Hello, World!", StandardCharsets.US_ASCII), true));
                }
            } else if (msg instanceof Http2DataFrame d) {
                int id = d.streamId();
                int credit = d.flowControlled();
                ctx.write(new Http2DataFrame(id, d.content(), d.endStream())).addListener(f -> {
                    if (f.isSuccess()) {
                        ctx.writeAndFlush(new Http2WindowUpdateFrame(id, credit));
                    }
                });
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Collects one response per stream: its status and its content, returning credit as it reads. */
    static final class ResponseCollector implements ChannelHandler {
        final BlockingQueue<String> statuses = new LinkedBlockingQueue<>();
        final BlockingQueue<byte[]> bodies = new LinkedBlockingQueue<>();
        private final java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h) {
                statuses.add(String.valueOf(h.headers().status()));
                if (h.endStream()) {
                    bodies.add(new byte[0]);
                }
            } else if (msg instanceof Http2DataFrame d) {
                byte[] bytes = new byte[d.content().readableBytes()];
                d.content().readBytes(bytes);
                body.writeBytes(bytes);
                ctx.writeAndFlush(new Http2WindowUpdateFrame(d.streamId(), d.flowControlled()));
                if (d.endStream()) {
                    bodies.add(body.toByteArray());
                    body.reset();
                }
                d.release();
            } else {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    private Channel startHttp2Server() {
        return startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forServer().build(), new Http2App());
            }
        });
    }

    @Test
    void rillClientAndServerExchangeRequestsAndAnEchoLargerThanEveryWindow() throws Exception {
        Channel server = startHttp2Server();
        ResponseCollector responses = new ResponseCollector();
        Channel client = connect(server, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forClient().build(), responses);
            }
        });
        for (int i = 0; i < 20; i++) {
            await(client.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/"), true)));
            assertEquals("200", take(responses.statuses));
            assertEquals("Hello, World!", new String(take(responses.bodies), StandardCharsets.US_ASCII));
        }
        byte[] big = new byte[3 << 20];
        new Random(7).nextBytes(big);
        Http2FrameCodec codec = client.pipeline().get(Http2FrameCodec.class);
        client.eventLoop().execute(() -> {
            try {
                int id = codec.reserveStreamId();
                client.write(new Http2HeadersFrame(id, request("POST", "/echo"), false));
                client.writeAndFlush(new Http2DataFrame(id, Unpooled.wrappedBuffer(big), true));
            } catch (Exception e) {
                responses.statuses.add(e.toString());
            }
        });
        assertEquals("200", take(responses.statuses));
        assertArrayEquals(big, take(responses.bodies), "3 MiB echoed through 64 KiB stream and 1 MiB connection windows");
    }

    @Test
    void curlWithPriorKnowledgeGetsHelloAndAnEcho() throws Exception {
        ExternalPeer.require("curl");
        Channel server = startHttp2Server();
        List<String> base = Curl.base(server.localAddress(), "--http2-prior-knowledge");
        ExternalPeer.Result hello = ExternalPeer.run(Curl.concat(base, Curl.url(server, "/")), null);
        assertEquals(0, hello.exitCode(), hello.output());
        assertEquals("Hello, World!", hello.output());
        Path body = dir.resolve("body");
        byte[] big = new byte[2 << 20];
        new Random(3).nextBytes(big);
        Files.write(body, big);
        Path out = dir.resolve("echo");
        ExternalPeer.Result echo = ExternalPeer.run(Curl.concat(base, "--data-binary", "@" + body, "-o", out.toString(),
                Curl.url(server, "/echo")), null);
        assertEquals(0, echo.exitCode(), echo.output());
        assertArrayEquals(big, Files.readAllBytes(out));
    }

    @Test
    void nghttpFetchesManyConcurrentStreams() throws Exception {
        ExternalPeer.require("nghttp");
        assumeTrue(transport.isInet(), "nghttp speaks TCP only");
        Channel server = startHttp2Server();
        List<String> command = new ArrayList<>(List.of("nghttp", "-n", "-s", "-m", "50", Curl.url(server, "/")));
        ExternalPeer.Result r = ExternalPeer.run(command, null);
        assertEquals(0, r.exitCode(), r.output());
        assertEquals(50, r.output().lines().filter(l -> l.contains("/")).filter(l -> l.matches("\\s*\\d+\\s+.*")).count(),
                r.output());
    }

    @Test
    void h2loadCompletesEveryRequestOnSeveralConnections() throws Exception {
        ExternalPeer.require("h2load");
        assumeTrue(transport.isInet(), "h2load speaks TCP only");
        Channel server = startHttp2Server();
        ExternalPeer.Result gets = ExternalPeer.run(List.of("h2load", "-n", "2000", "-c", "4", "-m", "20",
                Curl.url(server, "/")), null);
        assertTrue(gets.output().contains("2000 succeeded, 0 failed, 0 errored"), gets.output());
        Path body = dir.resolve("post");
        Files.write(body, new byte[100_000]);
        ExternalPeer.Result posts = ExternalPeer.run(List.of("h2load", "-n", "200", "-c", "2", "-m", "10",
                "-d", body.toString(), Curl.url(server, "/echo")), null);
        assertTrue(posts.output().contains("200 succeeded, 0 failed, 0 errored"), posts.output());
    }

    /** Rill's client (child channels over one connection) fetches files from nghttpd, nghttp2's own server. */
    @Test
    void rillsClientFetchesFromNghttpd() throws Exception {
        ExternalPeer.require("nghttpd");
        assumeTrue(transport.isInet(), "nghttpd speaks TCP only");
        byte[] file = new byte[1 << 20];
        new Random(11).nextBytes(file);
        Files.write(dir.resolve("file"), file);
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Process nghttpd = new ProcessBuilder("nghttpd", "--no-tls", "-v", "-d", dir.toString(), "-a", "127.0.0.1",
                String.valueOf(port)).redirectErrorStream(true).start();
        try {
            awaitListening(nghttpd);
            Channel connection = track(await(clientBootstrap().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(Http2FrameCodec.forClient().build(), new Http2MultiplexHandler(null));
                }
            }).connect(new InetSocketAddress("127.0.0.1", port))));
            for (int i = 0; i < 3; i++) {
                ResponseCollector responses = new ResponseCollector();
                Http2StreamChannel stream = await(new Http2StreamChannelBootstrap(connection).handler(responses).open());
                await(stream.writeAndFlush(new Http2HeadersFrame(0, new Http2Headers().method("GET").scheme("http")
                        .authority("127.0.0.1:" + port).path("/file"), true)));
                assertEquals("200", take(responses.statuses));
                assertArrayEquals(file, take(responses.bodies));
            }
        } finally {
            nghttpd.destroy();
            nghttpd.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** Reads nghttpd's verbose output until it says it listens, then keeps draining it on a daemon thread. */
    static void awaitListening(Process nghttpd) throws Exception {
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(nghttpd.getInputStream(),
                StandardCharsets.UTF_8));
        CompletableFuture<Void> listening = new CompletableFuture<>();
        Thread drain = new Thread(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.contains("listen ")) {
                        listening.complete(null);
                    }
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
            listening.completeExceptionally(new AssertionError("nghttpd ended before it listened"));
        }, "nghttpd-output");
        drain.setDaemon(true);
        drain.start();
        listening.get(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
    }

    /**
     * docs/security-cases.md, case H2-04, over a real connection: rapid reset gets GOAWAY
     * ENHANCE_YOUR_CALM and the close, while another client on the same server is served.
     */
    @Test
    void h2_04_aRapidResetAttackerIsCutOffWhileAnotherClientIsServed() throws Exception {
        Channel server = startHttp2Server();
        ResponseCollector responses = new ResponseCollector();
        Channel good = connect(server, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forClient().build(), responses);
            }
        });
        RawBytes received = new RawBytes();
        Channel attacker = connect(server, received);
        await(attacker.writeAndFlush(RawFrames.rapidReset(300)));
        byte[] answer = received.untilClosed.get(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(0xb, RawFrames.lastGoAwayError(answer), "GOAWAY ENHANCE_YOUR_CALM");
        await(good.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/"), true)));
        assertEquals("200", take(responses.statuses));
        assertEquals("Hello, World!", new String(take(responses.bodies), StandardCharsets.US_ASCII));
    }

    /**
     * docs/security-cases.md, case H2-25, over a real connection: clients that never open a window
     * and post 100 bodies each to an echo make the server hold what they sent and its echo. Beyond
     * the server's budget the greediest is closed with GOAWAY ENHANCE_YOUR_CALM and the others
     * get no new stream, while a client that reads is served; once they leave, nothing is held.
     */
    @Test
    void h2_25_zeroWindowClientsBeyondTheServerBudgetAreCutOffWhileAnotherClientIsServed() throws Exception {
        Http2ServerBudget budget = new Http2ServerBudget(512 * 1024);
        int attackers = 6;
        java.util.concurrent.CountDownLatch serverSideClosed = new java.util.concurrent.CountDownLatch(attackers + 1);
        Channel server = startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forServer().serverBudget(budget).build(), new Http2App(),
                        new ChannelHandler() {
                            @Override
                            public void channelInactive(ChannelHandlerContext ctx) {
                                // Counted once the codec's channelInactive, which fired this, has given its budget back.
                                ctx.executor().execute(serverSideClosed::countDown);
                                ctx.fireChannelInactive();
                            }
                        });
            }
        });
        ResponseCollector responses = new ResponseCollector();
        Channel good = connect(server, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forClient().build(), responses);
            }
        });
        List<RawBytes> received = new java.util.ArrayList<>();
        List<Channel> clients = new java.util.ArrayList<>();
        for (int i = 0; i < attackers; i++) {
            RawBytes bytes = new RawBytes();
            Channel attacker = connect(server, bytes);
            attacker.writeAndFlush(RawFrames.zeroWindowEchoes(100, 10_000)); // may fail midway: the server cuts it off
            received.add(bytes);
            clients.add(attacker);
        }
        await(good.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/"), true)));
        assertEquals("200", take(responses.statuses));
        assertEquals("Hello, World!", new String(take(responses.bodies), StandardCharsets.US_ASCII));
        assertTrue(budget.heldBytes() < 8 * budget.maxBytes(), "held " + budget.heldBytes() + " bytes");

        // The first alone holds four times the budget: it is the greediest, and the server closes it.
        // (Its GOAWAY ENHANCE_YOUR_CALM may be lost: the close resets a connection with content unread.)
        byte[] first = received.get(0).untilClosed.get(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        long error = RawFrames.lastGoAwayError(first);
        assertTrue(error == 0xb || error == -1, "GOAWAY ENHANCE_YOUR_CALM or nothing, not " + error);
        for (Channel attacker : clients) {
            await(attacker.close());
        }
        await(good.close());
        assertTrue(serverSideClosed.await(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS),
                "the server closed every connection once its client left");
        assertEquals(0, budget.heldBytes(), "nothing is held once the clients have gone");
    }

    /**
     * A client that sends its requests and ends its stream (FIN) still gets the answers to the
     * requests it finished, however late they come (RFC 9113 §5.1: the streams are half-closed,
     * the response may still be sent; the connection is not "closed" by the client's FIN, §9.1),
     * and the connection then ends at once. A stream it left unfinished can never complete: it is
     * reset (CANCEL) instead of being waited for until the 30 s graceful-shutdown bound, which is
     * what held connections in the soak.
     */
    @Test
    void h2_aClientsEndOfStreamEndsTheConnectionOnceItsFinishedRequestsAreAnswered() throws Exception {
        startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forServer().build(), new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof Http2HeadersFrame h && h.endStream()) {
                            // Answered after the client's FIN has certainly arrived.
                            ctx.executor().schedule(() -> {
                                ctx.write(new Http2HeadersFrame(h.streamId(), new Http2Headers().status("200"), false));
                                ctx.writeAndFlush(new Http2DataFrame(h.streamId(),
                                        Unpooled.copiedBuffer("late", StandardCharsets.US_ASCII), true));
                            }, 300, java.util.concurrent.TimeUnit.MILLISECONDS);
                        }
                        ReferenceCountUtil.release(msg);
                    }
                });
            }
        });
        for (boolean leaveOneUnfinished : new boolean[] {false, true}) {
            RawBytes received = new RawBytes();
            Channel client = connect(startedServer, received);
            assumeTrue(client instanceof io.rill.channel.socket.DuplexChannel, transport + " has no half closure");
            await(client.writeAndFlush(leaveOneUnfinished ? RawFrames.gets(new int[] {1, 3}, new boolean[] {true, false})
                    : RawFrames.gets(new int[] {1}, new boolean[] {true})));
            await(((io.rill.channel.socket.DuplexChannel) client).shutdownOutput());
            long start = System.nanoTime();
            List<String> frames = RawFrames.describe(received.untilClosed.get(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(frames.contains("0 1 1"), "the answer to stream 1, DATA with END_STREAM: " + frames);
            assertEquals(leaveOneUnfinished, frames.contains("3 0 3 8"), "RST_STREAM CANCEL on stream 3: " + frames);
            assertEquals(0, RawFrames.lastGoAwayError(received.untilClosed.get()), "GOAWAY NO_ERROR: " + frames);
            assertTrue(millis < 2_000, "closed " + millis + " ms after the FIN, not at a shutdown timer: " + frames);
        }
    }

    /** Every byte the server sends, until it closes. */
    static final class RawBytes implements ChannelHandler {
        final CompletableFuture<byte[]> untilClosed = new CompletableFuture<>();
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            byte[] a = new byte[b.readableBytes()];
            b.readBytes(a);
            b.release();
            bytes.writeBytes(a);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            untilClosed.complete(bytes.toByteArray());
        }
    }

    static Http2Headers request(String method, String path) {
        return new Http2Headers().method(method).scheme("http").authority("localhost").path(path);
    }

}
