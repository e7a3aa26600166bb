package io.rill.testsuite.socket;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollDomainSocketChannel;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollServerDomainSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/** The socket suite over epoll Unix-domain stream sockets, each server on a fresh path in the temp directory. */
class EpollDomainSocketTest extends SocketTestSuite {

    private static final AtomicInteger SERIAL = new AtomicInteger();

    @BeforeAll
    static void requireEpoll() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
    }

    @Override
    protected SocketTransport transport() {
        return new SocketTransport("epoll-unix",
                threads -> new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("epoll-unix", true),
                        EpollIoHandler.newFactory()),
                EpollServerDomainSocketChannel::new, EpollDomainSocketChannel::new,
                () -> UnixDomainSocketAddress.of(Path.of(System.getProperty("java.io.tmpdir"),
                        "rill-e" + ProcessHandle.current().pid() + "-" + SERIAL.incrementAndGet() + ".sock")));
    }
}
