package io.rill.handler.codec.memcache.text;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Rill's text memcache client codec against Debian's memcached speaking only the text protocol
 * ({@code -B ascii}), over NIO and epoll: set, get (a hit and a miss), gets and cas (a match and a
 * stale one), append, incr, a noreply set, touch, delete and version. Skips outside CI when memcached
 * is not installed; {@code .ci/run} installs it, and in CI a missing one fails.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TextMemcachedInteropTest {

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
                "-p", String.valueOf(port), "-U", "0", "-B", "ascii", "-m", "16", "-vv").redirectErrorStream(true).start();
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        try {
            BufferedReader log = new BufferedReader(new InputStreamReader(server.getInputStream(), US_ASCII));
            for (String line; ; ) {
                line = log.readLine();
                assertNotNull(line, "memcached exited before listening");
                if (line.contains("server listening")) {
                    break;
                }
            }
            drain(log);
            BlockingQueue<Object> replies = new LinkedBlockingQueue<>();
            Channel ch = new Bootstrap().group(group)
                    .channelFactory(epoll ? EpollSocketChannel::new : NioSocketChannel::new)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel c) {
                            c.pipeline().addLast(new TextMemcacheResponseDecoder(), TextMemcacheRequestEncoder.INSTANCE,
                                    new ChannelHandler() {
                                        @Override
                                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                            replies.add(msg);
                                        }

                                        @Override
                                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                            replies.add(cause);
                                        }
                                    });
                        }
                    })
                    .connect(new InetSocketAddress("127.0.0.1", port)).get(10, TimeUnit.SECONDS);

            ch.writeAndFlush(TextMemcacheRequest.store(TextMemcacheCommand.SET, "rill:greeting", 7, 0,
                    Unpooled.copiedBuffer("hello,\r\nmemcached", US_ASCII)));
            assertEquals(TextMemcacheResponse.STORED, take(replies));

            // Pipelined: a hit and a miss in one get, then a gets; replies come in order.
            ch.write(TextMemcacheRequest.get("rill:greeting", "rill:absent"));
            ch.writeAndFlush(TextMemcacheRequest.gets("rill:greeting"));
            TextMemcacheResponse hit = take(replies);
            assertEquals("rill:greeting", hit.key());
            assertEquals(7, hit.flags(), "the flags stored with the item come back");
            assertEquals("hello,\r\nmemcached", hit.content().toString(US_ASCII), "a value holding CRLF comes back whole");
            hit.release();
            assertEquals(TextMemcacheResponse.END, take(replies), "the miss has no VALUE");
            TextMemcacheResponse withCas = take(replies);
            assertTrue(withCas.hasCasUnique());
            long cas = withCas.casUnique();
            withCas.release();
            assertEquals(TextMemcacheResponse.END, take(replies));

            ch.writeAndFlush(TextMemcacheRequest.cas("rill:greeting", 1, 0, cas, Unpooled.copiedBuffer("v2", US_ASCII)));
            assertEquals(TextMemcacheResponse.STORED, take(replies));
            ch.writeAndFlush(TextMemcacheRequest.cas("rill:greeting", 1, 0, cas, Unpooled.copiedBuffer("v3", US_ASCII)));
            assertEquals(TextMemcacheResponse.EXISTS, take(replies), "the cas unique changed with the first cas");

            ch.writeAndFlush(TextMemcacheRequest.store(TextMemcacheCommand.APPEND, "rill:greeting", 0, 0,
                    Unpooled.copiedBuffer("+", US_ASCII)));
            assertEquals(TextMemcacheResponse.STORED, take(replies));
            ch.writeAndFlush(TextMemcacheRequest.store(TextMemcacheCommand.APPEND, "rill:absent", 0, 0,
                    Unpooled.copiedBuffer("+", US_ASCII)));
            assertEquals(TextMemcacheResponse.NOT_STORED, take(replies));

            // A noreply set has no answer: the incr after it is the next reply.
            ch.write(TextMemcacheRequest.store(TextMemcacheCommand.SET, "rill:counter", 0, 0,
                    Unpooled.copiedBuffer("40", US_ASCII)).noreply());
            ch.writeAndFlush(TextMemcacheRequest.arithmetic(TextMemcacheCommand.INCR, "rill:counter", 2));
            TextMemcacheResponse counter = take(replies);
            assertEquals(TextMemcacheResponse.Type.NUMBER, counter.type());
            assertEquals(42, counter.number());
            ch.writeAndFlush(TextMemcacheRequest.arithmetic(TextMemcacheCommand.INCR, "rill:absent", 2));
            assertEquals(TextMemcacheResponse.NOT_FOUND, take(replies));

            ch.writeAndFlush(TextMemcacheRequest.touch("rill:greeting", 3600));
            assertEquals(TextMemcacheResponse.TOUCHED, take(replies));
            ch.writeAndFlush(TextMemcacheRequest.retrieve(TextMemcacheCommand.GAT, 3600, "rill:greeting"));
            TextMemcacheResponse touched = take(replies);
            assertEquals("v2+", touched.content().toString(US_ASCII));
            touched.release();
            assertEquals(TextMemcacheResponse.END, take(replies));

            ch.writeAndFlush(TextMemcacheRequest.delete("rill:greeting"));
            assertEquals(TextMemcacheResponse.DELETED, take(replies));
            ch.writeAndFlush(TextMemcacheRequest.delete("rill:greeting"));
            assertEquals(TextMemcacheResponse.NOT_FOUND, take(replies));

            ch.writeAndFlush(TextMemcacheRequest.version());
            TextMemcacheResponse version = take(replies);
            assertEquals(TextMemcacheResponse.Type.VERSION, version.type());
            assertTrue(version.message().matches("\\d+\\.\\d+.*"), version.toString());
            ch.close().get(10, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static TextMemcacheResponse take(BlockingQueue<Object> replies) throws Exception {
        Object got = replies.poll(10, TimeUnit.SECONDS);
        assertNotNull(got, "no reply within 10 s");
        if (got instanceof Throwable t) {
            throw new AssertionError("the client failed", t);
        }
        return (TextMemcacheResponse) got;
    }

    /** memcached's log, read so that its pipe never fills. */
    private static void drain(BufferedReader log) {
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
