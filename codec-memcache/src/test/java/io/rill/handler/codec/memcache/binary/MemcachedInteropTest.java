package io.rill.handler.codec.memcache.binary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.Unpooled;
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

/**
 * Rill's binary memcache client codec against Debian's memcached, over NIO and epoll: SET, GET (a
 * hit and a miss), quiet GETKQ requests pipelined and ended by NOOP, INCREMENT, DELETE and VERSION.
 * Skips outside CI when memcached is not installed; {@code .ci/run} installs it, and in CI a
 * missing one fails.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemcachedInteropTest {

    private static final Path MEMCACHED = Path.of("/usr/bin/memcached");

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void aClientSessionWithMemcached(String transport) throws Exception {
        boolean installed = Files.isExecutable(MEMCACHED);
        if (System.getenv("CI") != null) {
            assertTrue(installed, "memcached is missing (.ci/run installs it)");
        }
        assumeTrue(installed, "memcached is not installed (apt-get install memcached)");
        boolean epoll = transport.equals("epoll");
        assumeTrue(!epoll || Epoll.isAvailable(), "epoll is not available here");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process server = new ProcessBuilder(MEMCACHED.toString(), "-u", System.getProperty("user.name"), "-l", "127.0.0.1",
                "-p", String.valueOf(port), "-U", "0", "-B", "binary", "-m", "16", "-vv").redirectErrorStream(true).start();
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        try {
            BufferedReader log = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            for (String line; ; ) {
                line = log.readLine();
                assertNotNull(line, "memcached exited before listening");
                if (line.contains("server listening")) {
                    break;
                }
            }
            LogDrain.start(log);
            BlockingQueue<Object> responses = new LinkedBlockingQueue<>();
            Channel ch = new Bootstrap().group(group)
                    .channelFactory(epoll ? EpollSocketChannel::new : NioSocketChannel::new)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel c) {
                            c.pipeline().addLast(new BinaryMemcacheResponseDecoder(), BinaryMemcacheEncoder.INSTANCE,
                                    new ChannelHandler() {
                                        @Override
                                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                            responses.add(msg);
                                        }

                                        @Override
                                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                            responses.add(cause);
                                        }
                                    });
                        }
                    })
                    .connect(new InetSocketAddress("127.0.0.1", port)).get(10, TimeUnit.SECONDS);

            ch.writeAndFlush(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.SET).key("rill:greeting")
                    .extras(BinaryMemcacheCodecTest.FLAGS_AND_EXPIRY).opaque(1)
                    .value(Unpooled.copiedBuffer("hello, memcached", StandardCharsets.US_ASCII)).build());
            BinaryMemcacheMessage stored = take(responses);
            assertEquals(BinaryMemcacheStatus.SUCCESS, stored.status());
            assertEquals(1, stored.opaque());
            assertTrue(stored.cas() != 0, "a stored item has a CAS value");
            stored.release();

            ch.writeAndFlush(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.GET).key("rill:greeting").opaque(2).build());
            BinaryMemcacheMessage hit = take(responses);
            assertEquals(BinaryMemcacheStatus.SUCCESS, hit.status());
            assertEquals("hello, memcached", hit.content().toString(StandardCharsets.US_ASCII));
            assertEquals(7, hit.extras()[3], "the flags stored with the item come back");
            hit.release();

            ch.writeAndFlush(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.GET).key("rill:absent").opaque(3).build());
            BinaryMemcacheMessage miss = take(responses);
            assertEquals(BinaryMemcacheStatus.KEY_NOT_FOUND, miss.status());
            miss.release();

            // Quiet gets pipelined: only hits answer, and NOOP's answer says all were seen.
            for (String key : List.of("rill:absent", "rill:greeting", "rill:also-absent")) {
                ch.write(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.GETKQ).key(key).build());
            }
            ch.writeAndFlush(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.NOOP).opaque(4).build());
            List<String> seen = new ArrayList<>();
            for (BinaryMemcacheMessage m; (m = take(responses)).opcode() != BinaryMemcacheOpcode.NOOP; ) {
                seen.add(m.keyString() + "=" + m.content().toString(StandardCharsets.US_ASCII));
                m.release();
            }
            assertEquals(List.of("rill:greeting=hello, memcached"), seen);

            byte[] incrExtras = {0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 40, 0, 0, 0, 0};
            ch.writeAndFlush(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.INCREMENT).key("rill:counter")
                    .extras(incrExtras).build());
            BinaryMemcacheMessage counter = take(responses);
            assertEquals(40, counter.content().getLong(0), "absent, the counter starts at its initial value");
            counter.release();

            ch.writeAndFlush(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.DELETE).key("rill:greeting").build());
            BinaryMemcacheMessage deleted = take(responses);
            assertEquals(BinaryMemcacheStatus.SUCCESS, deleted.status());
            deleted.release();

            ch.writeAndFlush(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.VERSION).build());
            BinaryMemcacheMessage version = take(responses);
            assertTrue(version.content().toString(StandardCharsets.US_ASCII).matches("\\d+\\.\\d+.*"), version.toString());
            version.release();
            ch.close().get(10, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static BinaryMemcacheMessage take(BlockingQueue<Object> responses) throws Exception {
        Object got = responses.poll(10, TimeUnit.SECONDS);
        assertNotNull(got, "no response within 10 s");
        if (got instanceof Throwable t) {
            throw new AssertionError("the client failed", t);
        }
        return (BinaryMemcacheMessage) got;
    }

    /** memcached's log, read so that its pipe never fills. */
    private static final class LogDrain {
        static void start(BufferedReader log) {
            Thread t = new Thread(() -> {
                try {
                    while (log.readLine() != null) {
                        // discarded
                    }
                } catch (java.io.IOException closed) {
                    // the process ended
                }
            }, "memcached-log");
            t.setDaemon(true);
            t.start();
        }
    }
}
