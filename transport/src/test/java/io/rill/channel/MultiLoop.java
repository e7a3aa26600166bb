package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import io.rill.channel.nio.NioIoHandler;
import io.rill.util.concurrent.DefaultThreadFactory;

/** A one-thread NIO event loop group for tests that need a real loop thread. */
final class MultiLoop implements AutoCloseable {

    final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("transport-test", true), NioIoHandler.newFactory());
    final IoEventLoop loop = group.next();

    @Override
    public void close() throws InterruptedException {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }
}
