package io.rill.testsuite.socket;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollDatagramChannel;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollServerSocketChannel;
import io.rill.channel.epoll.EpollSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/** The socket suite over the native epoll transport (TCP and UDP on 127.0.0.1); skipped where epoll cannot load. */
class EpollSocketTest extends SocketTestSuite {

    @BeforeAll
    static void requireEpoll() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
    }

    @Override
    protected SocketTransport transport() {
        return new SocketTransport("epoll-tcp",
                threads -> new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("epoll-tcp", true),
                        EpollIoHandler.newFactory()),
                EpollServerSocketChannel::new, EpollSocketChannel::new,
                () -> new InetSocketAddress("127.0.0.1", 0), EpollDatagramChannel::new);
    }
}
