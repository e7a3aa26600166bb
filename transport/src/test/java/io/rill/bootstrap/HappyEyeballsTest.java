package io.rill.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.resolver.AddressResolver;
import io.rill.resolver.AddressResolverGroup;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;

/** Bootstrap's connect to a name with several addresses, over real sockets on the loopback. */
class HappyEyeballsTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("happy-eyeballs-test", true), NioIoHandler.newFactory());
    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** Every channel an attempt made, winner and losers. */
    private final Queue<Channel> attempts = new ConcurrentLinkedQueue<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
    }

    @Test
    void blackholedAddressesAreOvertakenAfterTheDelayAndClosed() throws Exception {
        InetSocketAddress blackhole = blackhole();
        InetSocketAddress good = accepting();
        long start = System.nanoTime();
        Channel ch = bootstrap(List.of(blackhole, blackhole, good), Duration.ofMillis(100))
                .connect("multi.test", 1).get(10, TimeUnit.SECONDS);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(good, ch.remoteAddress());
        assertTrue(tookMs >= 190, "each later attempt waited for the delay, took " + tookMs + " ms");
        assertEquals(3, attempts.size());
        for (Channel attempt : attempts) {
            if (attempt != ch) {
                assertTrue(attempt.closeFuture().await(5, TimeUnit.SECONDS), "every losing attempt was closed");
            }
        }
        ch.close().sync();
    }

    @Test
    void aRefusedAttemptStartsTheNextAtOnce() throws Exception {
        InetSocketAddress refusing = refusing();
        InetSocketAddress good = accepting();
        long start = System.nanoTime();
        Channel ch = bootstrap(List.of(refusing, good), Duration.ofSeconds(30))
                .connect("multi.test", 1).get(10, TimeUnit.SECONDS);
        assertEquals(good, ch.remoteAddress());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "did not wait out the 30 s delay");
        ch.close().sync();
    }

    @Test
    void whenEveryAddressFailsOneExceptionListsEachCause() throws Exception {
        InetSocketAddress a = refusing();
        InetSocketAddress b = refusing();
        Future<Channel> f = bootstrap(List.of(a, b), Duration.ofMillis(250)).connect("multi.test", 1);
        assertTrue(f.await(10, TimeUnit.SECONDS));
        ConnectAttemptsFailedException e = assertInstanceOf(ConnectAttemptsFailedException.class, f.cause());
        assertEquals(2, e.failures().size(), e.getMessage());
        assertTrue(e.getMessage().contains(a.toString()) && e.getMessage().contains(b.toString()), e.getMessage());
        assertEquals(2, e.getSuppressed().length);
        for (Channel attempt : attempts) {
            assertTrue(attempt.closeFuture().await(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void aHandlerThatIsNotSharableGetsOneAttemptToTheFirstAddress() throws Exception {
        InetSocketAddress refusing = refusing();
        InetSocketAddress good = accepting();
        Future<Channel> f = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .resolver(new FixedResolverGroup(List.of(refusing, good))).handler(new io.rill.channel.ChannelHandler() { })
                .connect("multi.test", 1);
        assertTrue(f.await(10, TimeUnit.SECONDS));
        assertInstanceOf(java.net.ConnectException.class, f.cause());
        assertTrue(!(f.cause() instanceof ConnectAttemptsFailedException) && f.cause().getMessage().contains(refusing.toString()),
                f.cause().getMessage());
    }

    @Test
    void familiesAreInterleavedPreferredFirst() throws Exception {
        InetSocketAddress v6a = new InetSocketAddress(InetAddress.getByName("::1"), 1);
        InetSocketAddress v6b = new InetSocketAddress(InetAddress.getByName("::2"), 1);
        InetSocketAddress v4a = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 1);
        InetSocketAddress v4b = new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 1);
        assertEquals(List.of(v6a, v4a, v6b, v4b), HappyEyeballs.interleave(List.of(v6a, v6b, v4a, v4b)));
        assertEquals(List.of(v4a, v6a, v4b, v6b), HappyEyeballs.interleave(List.of(v4a, v4b, v6a, v6b)));
    }

    private Bootstrap bootstrap(List<InetSocketAddress> addresses, Duration delay) {
        return new Bootstrap().group(group).channel(NioSocketChannel.class)
                .resolver(new FixedResolverGroup(addresses)).connectAttemptDelay(delay)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        attempts.add(ch);
                    }
                });
    }

    private InetSocketAddress accepting() throws IOException {
        ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
        toClose.add(server);
        return new InetSocketAddress(LOOPBACK, server.getLocalPort());
    }

    private static InetSocketAddress refusing() throws IOException {
        try (ServerSocket gone = new ServerSocket(0, 1, LOOPBACK)) {
            return new InetSocketAddress(LOOPBACK, gone.getLocalPort());
        }
    }

    /**
     * A listener that never accepts, its accept queue filled: Linux drops further SYNs, so a connect
     * to it neither succeeds nor fails until the connect timeout, like a blackholed route.
     */
    private InetSocketAddress blackhole() throws IOException {
        ServerSocket server = new ServerSocket(0, 1, LOOPBACK);
        toClose.add(server);
        InetSocketAddress address = new InetSocketAddress(LOOPBACK, server.getLocalPort());
        for (int i = 0; i < 4; i++) {
            SocketChannel filler = SocketChannel.open();
            filler.configureBlocking(false);
            filler.connect(address);
            toClose.add(filler);
        }
        return address;
    }

    /** Resolves every name to the same addresses, in the given order. */
    private static final class FixedResolverGroup extends AddressResolverGroup<InetSocketAddress> {
        private final List<InetAddress> hosts = new ArrayList<>();
        private final List<Integer> ports = new ArrayList<>();

        FixedResolverGroup(List<InetSocketAddress> addresses) {
            for (InetSocketAddress a : addresses) {
                hosts.add(a.getAddress());
                ports.add(a.getPort());
            }
        }

        @Override
        protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
            return new AddressResolver<>() {
                @Override
                public boolean isSupported(SocketAddress address) {
                    return address instanceof InetSocketAddress;
                }

                @Override
                public boolean isResolved(SocketAddress address) {
                    return !((InetSocketAddress) address).isUnresolved();
                }

                @Override
                public Future<InetSocketAddress> resolve(SocketAddress address) {
                    return executor.newSucceededFuture(new InetSocketAddress(hosts.get(0), ports.get(0)));
                }

                @Override
                public Future<List<InetSocketAddress>> resolveAll(SocketAddress address) {
                    List<InetSocketAddress> out = new ArrayList<>();
                    for (int i = 0; i < hosts.size(); i++) {
                        out.add(new InetSocketAddress(hosts.get(i), ports.get(i)));
                    }
                    return executor.newSucceededFuture(List.copyOf(out));
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
