package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ChannelFactory;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollSocketChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.example.ForkedExample.Outcome;
import io.rill.handler.codec.redis.AggregateRedisMessage;
import io.rill.handler.codec.redis.FullBulkStringRedisMessage;
import io.rill.handler.codec.redis.RedisAggregateType;
import io.rill.handler.codec.redis.RedisAggregator;
import io.rill.handler.codec.redis.RedisDecoder;
import io.rill.handler.codec.redis.RedisEncoder;
import io.rill.handler.codec.redis.RedisMessage;

/**
 * Rill's Redis codec against the real thing, over NIO and epoll: the {@code redis-client} example
 * against Debian's {@code redis-server} (RESP2 and RESP3: HELLO's map, a double, booleans in a map,
 * a push), the codec itself receiving a CLIENT TRACKING invalidation push, and {@code redis-cli} and
 * {@code redis-benchmark} against the {@code redis-server} example. Each test starts its peer on a
 * free loopback port. Without redis-server or redis-tools the tests skip, except in CI
 * ({@code CI=true}), where {@code .ci/run} installs them and their absence fails.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisInteropTest {

    @TempDir
    Path dir;

    private static void need(String transport, String... commands) {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        for (String command : commands) {
            boolean present = onPath(command);
            assertTrue(present || !"true".equals(System.getenv("CI")), "CI must install " + command
                    + " (.ci/run: redis-server)");
            assumeTrue(present, command + " is not installed");
        }
    }

    private static boolean onPath(String command) {
        try {
            return new ProcessBuilder("sh", "-c", "command -v " + command).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Starts Debian's redis-server on a free loopback port, without persistence, and waits until it listens. */
    private Process startRedis(int port) throws Exception {
        Path log = dir.resolve("redis-" + port + ".log");
        Process p = new ProcessBuilder("redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return p;
            } catch (IOException notYet) {
                if (!p.isAlive()) {
                    break;
                }
                p.waitFor(50, TimeUnit.MILLISECONDS); // polling a port we do not own: no event to wait on
            }
        }
        p.destroyForcibly();
        throw new AssertionError("redis-server did not listen on " + port + ": " + Files.readString(log));
    }

    private static Outcome run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), command[0] + " did not end");
        return new Outcome(p.exitValue(), out, err, 0);
    }

    private static String client(int port, String transport, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of("redis-client", "--port", String.valueOf(port), "--transport", transport));
        args.addAll(List.of(command));
        Outcome outcome = ForkedExample.runToEnd("", args.toArray(String[]::new));
        assertEquals(0, outcome.status(), outcome.toString());
        return outcome.out();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void theRedisClientExampleTalksResp2AndResp3WithRedisServer(String transport) throws Exception {
        need(transport, "redis-server");
        int port = freePort();
        Process redis = startRedis(port);
        try {
            assertEquals("OK\n", client(port, transport, "SET", "greeting", "hello \"world\"\n"));
            assertEquals("\"hello \\\"world\\\"\\n\"\n", client(port, transport, "GET", "greeting"));
            assertEquals("(nil)\n", client(port, transport, "GET", "missing"));
            String hello = client(port, transport, "--resp3", "HELLO", "3");
            assertTrue(hello.startsWith("1# \"server\" => \"redis\"\n") && hello.contains("# \"proto\" => (integer) 3\n"),
                    hello);
            assertEquals("(double) 1.5\n", client(port, transport, "--resp3", "EVAL", "return {double=1.5}", "0"));
            assertEquals("1# \"yes\" => (true)\n", client(port, transport, "--resp3", "EVAL",
                    "redis.setresp(3); return {map={yes=true}}", "0"));
            // Under RESP3 the confirmation of SUBSCRIBE is a push; the client prints it as redis-cli does.
            assertEquals("1) \"subscribe\"\n2) \"news\"\n3) (integer) 1\n", client(port, transport, "--resp3", "SUBSCRIBE",
                    "news"));
        } finally {
            redis.destroy();
            redis.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void theCodecReceivesTheTypesOfResp3FromRedisServerIncludingATrackingPush(String transport) throws Exception {
        need(transport, "redis-server");
        int port = freePort();
        Process redis = startRedis(port);
        boolean epoll = transport.equals("epoll");
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        ChannelFactory<? extends Channel> channels = epoll ? EpollSocketChannel::new : NioSocketChannel::new;
        LinkedBlockingQueue<RedisMessage> replies = new LinkedBlockingQueue<>();
        try {
            Channel tracked = connect(group, channels, port, replies);
            LinkedBlockingQueue<RedisMessage> otherReplies = new LinkedBlockingQueue<>();
            Channel other = connect(group, channels, port, otherReplies);
            tracked.write(AggregateRedisMessage.command("HELLO", "3"));
            tracked.write(AggregateRedisMessage.command("CLIENT", "TRACKING", "on"));
            tracked.writeAndFlush(AggregateRedisMessage.command("GET", "watched"));
            RedisMessage hello = take(replies);
            assertInstanceOf(AggregateRedisMessage.class, hello);
            assertEquals(RedisAggregateType.MAP, ((AggregateRedisMessage) hello).type());
            ReferenceCountUtil.release(hello);
            ReferenceCountUtil.release(take(replies)); // +OK
            ReferenceCountUtil.release(take(replies)); // _ (the key does not exist)
            other.writeAndFlush(AggregateRedisMessage.command("SET", "watched", "now"));
            ReferenceCountUtil.release(take(otherReplies));
            RedisMessage push = take(replies);
            try {
                AggregateRedisMessage invalidate = assertInstanceOf(AggregateRedisMessage.class, push);
                assertEquals(RedisAggregateType.PUSH, invalidate.type());
                assertEquals("invalidate", ((FullBulkStringRedisMessage) invalidate.children().get(0)).text());
                AggregateRedisMessage keys = (AggregateRedisMessage) invalidate.children().get(1);
                assertEquals("watched", ((FullBulkStringRedisMessage) keys.children().get(0)).text());
            } finally {
                ReferenceCountUtil.release(push);
            }
            tracked.close().sync();
            other.close().sync();
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            redis.destroy();
            redis.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Channel connect(MultiThreadIoEventLoopGroup group, ChannelFactory<? extends Channel> channels, int port,
                                   LinkedBlockingQueue<RedisMessage> replies) throws Exception {
        return new Bootstrap().group(group).channelFactory(channels).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new RedisDecoder(), new RedisAggregator(), RedisEncoder.INSTANCE, new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        replies.add((RedisMessage) msg);
                    }
                });
            }
        }).connect("127.0.0.1", port).sync().getNow();
    }

    private static RedisMessage take(LinkedBlockingQueue<RedisMessage> replies) throws InterruptedException {
        RedisMessage m = replies.poll(10, TimeUnit.SECONDS);
        assertTrue(m != null, "no reply within 10 s");
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void redisCliAndRedisBenchmarkDriveTheRedisServerExample(String transport) throws Exception {
        need(transport, "redis-cli", "redis-benchmark");
        try (ForkedExample server = new ForkedExample("redis-server", "--port", "0", "--transport", transport)) {
            String p = String.valueOf(server.port());
            assertEquals("PONG\n", run("redis-cli", "-p", p, "PING").out());
            assertEquals("OK\n", run("redis-cli", "-p", p, "SET", "k", "v w").out());
            assertEquals("v w\n", run("redis-cli", "-p", p, "GET", "k").out());
            assertEquals("2\n", run("redis-cli", "-p", p, "EXISTS", "k", "k").out());
            assertEquals("1\n", run("redis-cli", "-p", p, "INCR", "n").out());
            assertEquals("1\n", run("redis-cli", "-p", p, "DEL", "k").out());
            assertTrue(run("redis-cli", "-3", "-p", p, "HELLO", "3").out().contains("\nproto 3\n"), "RESP3 HELLO");
            assertTrue(run("redis-cli", "-p", p, "NOSUCH").out().contains("ERR unknown command"), "unknown command");
            Outcome bench = run("redis-benchmark", "-p", p, "-q", "-n", "10000", "-t", "get,set,ping", "-P", "16", "-c", "10");
            assertEquals(0, bench.status(), bench.toString());
            String report = bench.out().replaceAll(".*\r", ""); // progress lines end in CR
            for (String test : List.of("PING_INLINE", "PING_MBULK", "SET", "GET")) {
                assertTrue(report.contains(test + ": ") && report.contains("requests per second"), report);
            }
            assertFalse((bench.out() + bench.err()).toLowerCase().contains("error"), bench.toString());
            assertEquals("PONG\n", run("redis-cli", "-p", p, "PING").out(), "the server still answers");
            // REDIS-12: a command before the bad input is answered, then -ERR Protocol error, then the close.
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write("PING\r\n*1\r\n$-5\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
                String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertTrue(answer.startsWith("+PONG\r\n-ERR Protocol error: ") && answer.indexOf("\r\n", 7) == answer.length() - 2,
                        answer);
            }
        }
    }
}
