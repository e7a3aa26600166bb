package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.MultiThreadIoEventLoopGroup;

/** SO_REUSEPORT across loops, and descriptors given back: loops, servers and connections leave none behind. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EpollReusePortAndDescriptorTest {

    private static final Path FDS = Path.of("/proc/self/fd");

    @BeforeEach
    void requireEpoll() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
    }

    @Test
    void serversOnOnePortWithReusePortEachGetConnections() throws Exception {
        int servers = 4;
        int connections = 64;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(servers, EpollIoHandler.newFactory());
        try {
            AtomicInteger[] accepted = new AtomicInteger[servers];
            CountDownLatch all = new CountDownLatch(connections);
            int port = 0;
            for (int i = 0; i < servers; i++) {
                AtomicInteger count = accepted[i] = new AtomicInteger();
                Channel server = new ServerBootstrap().group(group.next(), group).channel(EpollServerSocketChannel.class)
                        .option(EpollChannelOption.SO_REUSEPORT, true)
                        .childHandler(new CountActive(count, all))
                        .bind(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().getNow();
                port = ((InetSocketAddress) server.localAddress()).getPort();
            }
            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < connections; i++) {
                    clients.add(new Socket("127.0.0.1", port));
                }
                assertTrue(all.await(10, TimeUnit.SECONDS), "all connections accepted");
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
            }
            // The kernel hashes each connection's 4-tuple to one socket: with 64 connections, all 4 get
            // some (the chance that one gets none is 4 * (3/4)^64, about 4e-8).
            for (int i = 0; i < servers; i++) {
                assertTrue(accepted[i].get() > 0, "server " + i + " accepted none: " + List.of(accepted));
            }
        } finally {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void loopsServersAndConnectionsGiveEveryDescriptorBack() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(FDS), "needs /proc/self/fd");
        cycle(); // warm up: lazily opened JDK resources count in the baseline
        long before = count();
        for (int i = 0; i < 20; i++) {
            cycle();
        }
        long after = count();
        assertTrue(after <= before + 4, "descriptors: " + before + " before, " + after + " after");
    }

    /** A two-loop group (2 epoll + 2 eventfd), a server, 10 connections; then everything shut. */
    private static void cycle() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
        CountDownLatch active = new CountDownLatch(10);
        Channel server = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
                .childHandler(new CountActive(new AtomicInteger(), active))
                .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().getNow();
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        for (int i = 0; i < 10; i++) {
            new Socket(address.getAddress(), address.getPort()).close();
        }
        assertTrue(active.await(10, TimeUnit.SECONDS), "all 10 connections accepted");
        // Open children are closed by the loops' shutdown, the server too.
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        assertEquals(false, server.isOpen());
    }

    private static long count() throws IOException {
        try (Stream<Path> list = Files.list(FDS)) {
            return list.count();
        }
    }

    @ChannelHandler.Sharable
    private static final class CountActive implements ChannelHandler {
        private final AtomicInteger count;
        private final CountDownLatch latch;

        CountActive(AtomicInteger count, CountDownLatch latch) {
            this.count = count;
            this.latch = latch;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            count.incrementAndGet();
            latch.countDown();
        }
    }
}
