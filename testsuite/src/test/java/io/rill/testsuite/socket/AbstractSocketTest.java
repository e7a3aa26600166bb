package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.EventLoopGroup;
import io.rill.util.concurrent.Future;

/**
 * The scaffolding of every socket test: a two-loop group of the transport under test, bootstraps
 * preset with its channel factories, and channels tracked so each test ends with everything
 * closed and the group shut down (a test that fails half-way leaks nothing into the next one).
 * Every wait is bounded; nothing sleeps.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(NameTheTransportOnFailure.class)
abstract class AbstractSocketTest {

    /** How long any single step may take before the test fails. */
    static final long TIMEOUT_SECONDS = 10;

    SocketTransport transport;
    EventLoopGroup group;
    /** The server most recently started by this test. */
    Channel startedServer;
    /** Closed in tearDown: servers, clients and accepted children alike. */
    private final List<Channel> channels = new ArrayList<>();

    /** The transport under test; the suite's subclass answers it. */
    protected abstract SocketTransport transport();

    @BeforeEach
    void setUpGroup() {
        transport = transport();
        group = transport.groupFactory().apply(2);
    }

    @AfterEach
    void tearDownGroup() throws InterruptedException {
        List<Channel> open;
        synchronized (channels) {
            open = new ArrayList<>(channels);
        }
        for (Channel ch : open) {
            ch.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                transport + ": the event loop group did not terminate");
        afterGroupTerminated();
    }

    /** Checks once every channel is closed and the group has terminated (e.g. for native leaks). */
    void afterGroupTerminated() {
    }

    ServerBootstrap serverBootstrap() {
        return new ServerBootstrap().group(group).channelFactory(transport.serverChannel());
    }

    Bootstrap clientBootstrap() {
        return new Bootstrap().group(group).channelFactory(transport.clientChannel());
    }

    /** A bound server whose accepted channels get {@code childHandler}. */
    Channel startServer(ChannelHandler childHandler) {
        return startServer(serverBootstrap().childHandler(childHandler));
    }

    Channel startServer(ServerBootstrap bootstrap) {
        startedServer = track(await(bootstrap.bind(transport.bindAddress().get())));
        return startedServer;
    }

    /** A server that hands each accepted channel to the returned queue (with {@code handlers} added). */
    BlockingQueue<Channel> startServerCollectingChildren(ServerBootstrap bootstrap, ChannelHandler... handlers) {
        BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
        startServer(bootstrap.childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(handlers);
                accepted.add(track(ch));
            }
        }));
        return accepted;
    }

    /** A client connected to {@code server} with {@code handler}. */
    Channel connect(Channel server, ChannelHandler handler) {
        return track(await(clientBootstrap().handler(handler).connect(server.localAddress())));
    }

    Channel track(Channel ch) {
        synchronized (channels) {
            channels.add(ch);
        }
        return ch;
    }

    static <T> T take(BlockingQueue<T> queue) throws InterruptedException {
        T item = queue.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertTrue(item != null, "nothing arrived within " + TIMEOUT_SECONDS + " s");
        return item;
    }

    /** Waits for {@code future} to succeed and returns its value; fails the test with its cause otherwise. */
    static <T> T await(Future<T> future) {
        if (!future.awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("not done within " + TIMEOUT_SECONDS + " s: " + future);
        }
        if (!future.isSuccess()) {
            throw new AssertionError("failed: " + future.cause(), future.cause());
        }
        return future.getNow();
    }

    /** Waits for {@code future} to fail and returns why. */
    static Throwable awaitFailure(Future<?> future) {
        if (!future.awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("not done within " + TIMEOUT_SECONDS + " s: " + future);
        }
        assertFalse(future.isSuccess(), "expected a failure, got success");
        return future.cause();
    }
}
