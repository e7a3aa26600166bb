package io.rill.testsuite.socket;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import io.rill.channel.Channel;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollChannelOption;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollMode;
import io.rill.channel.epoll.EpollServerSocketChannel;
import io.rill.channel.epoll.EpollSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/** The socket suite over epoll TCP with every channel level-triggered (accepted ones take the server's mode). */
class EpollLevelTriggeredSocketTest extends SocketTestSuite {

    @BeforeAll
    static void requireEpoll() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
    }

    @Override
    protected SocketTransport transport() {
        return new SocketTransport("epoll-tcp-lt",
                threads -> new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("epoll-lt", true),
                        EpollIoHandler.newFactory()),
                (loop, children) -> levelTriggered(new EpollServerSocketChannel(loop, children)),
                loop -> levelTriggered(new EpollSocketChannel(loop)),
                () -> new InetSocketAddress("127.0.0.1", 0));
    }

    private static <C extends Channel> C levelTriggered(C channel) {
        channel.config().setOption(EpollChannelOption.EPOLL_MODE, EpollMode.LEVEL_TRIGGERED);
        return channel;
    }
}
