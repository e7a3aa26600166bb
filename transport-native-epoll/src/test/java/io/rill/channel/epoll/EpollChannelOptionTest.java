package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.InvalidChannelOptionException;
import io.rill.channel.MultiThreadIoEventLoopGroup;

/** Every Linux option is set, then read back from the kernel through getsockopt. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EpollChannelOptionTest {

    private EventLoopGroup group;
    private Channel server;
    private EpollSocketChannel client;

    @BeforeEach
    void connect() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
                .option(EpollChannelOption.SO_REUSEPORT, true)
                .option(EpollChannelOption.TCP_FASTOPEN, 16)
                .childHandler(new ChannelHandler() { })
                .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().getNow();
        client = (EpollSocketChannel) new Bootstrap().group(group).channel(EpollSocketChannel.class)
                .option(EpollChannelOption.TCP_FASTOPEN_CONNECT, true)
                .option(EpollChannelOption.IP_FREEBIND, true)
                .handler(new ChannelHandler() { })
                .connect(server.localAddress()).syncUninterruptibly().getNow();
    }

    @AfterEach
    void close() throws InterruptedException {
        if (group != null) {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void linuxOptionsOfAConnectedSocketReadBackAsSet() {
        EpollSocketChannelConfig config = client.config();
        assertSetAndReadBack(config, EpollChannelOption.TCP_CORK, true);
        assertSetAndReadBack(config, EpollChannelOption.TCP_CORK, false);
        assertSetAndReadBack(config, EpollChannelOption.TCP_NOTSENT_LOWAT, 16 * 1024);
        assertSetAndReadBack(config, EpollChannelOption.TCP_KEEPIDLE, 77);
        assertSetAndReadBack(config, EpollChannelOption.TCP_KEEPINTVL, 11);
        assertSetAndReadBack(config, EpollChannelOption.TCP_KEEPCNT, 5);
        assertSetAndReadBack(config, EpollChannelOption.TCP_USER_TIMEOUT, 12_345);
        assertSetAndReadBack(config, EpollChannelOption.SO_REUSEPORT, true);
        assertSetAndReadBack(config, EpollChannelOption.IP_FREEBIND, false);
        assertSetAndReadBack(config, EpollChannelOption.EPOLL_MODE, EpollMode.LEVEL_TRIGGERED);
        assertSetAndReadBack(config, EpollChannelOption.EPOLL_MODE, EpollMode.EDGE_TRIGGERED);
        // Set before connect by the bootstrap:
        assertEquals(true, config.getOption(EpollChannelOption.TCP_FASTOPEN_CONNECT));
        // The kernel leaves quick-ack mode by itself; setting it must work, reading is a snapshot.
        assertTrue(config.setOption(EpollChannelOption.TCP_QUICKACK, true));
    }

    @Test
    void standardOptionsGoThroughTheNativeSocketToo() {
        EpollSocketChannelConfig config = client.config();
        assertEquals(true, config.getOption(ChannelOption.TCP_NODELAY), "on by default");
        assertSetAndReadBack(config, ChannelOption.TCP_NODELAY, false);
        assertSetAndReadBack(config, ChannelOption.SO_KEEPALIVE, true);
        assertSetAndReadBack(config, ChannelOption.SO_LINGER, 3);
        assertSetAndReadBack(config, ChannelOption.SO_LINGER, -1);
        assertSetAndReadBack(config, ChannelOption.IP_TOS, 0x10);
        config.setOption(ChannelOption.SO_RCVBUF, 64 * 1024);
        assertTrue(config.getOption(ChannelOption.SO_RCVBUF) >= 64 * 1024, "Linux doubles it for bookkeeping");
    }

    @Test
    void serverOptionsReadBackAsSetBeforeBind() {
        EpollServerSocketChannelConfig config = (EpollServerSocketChannelConfig) server.config();
        assertEquals(true, config.getOption(EpollChannelOption.SO_REUSEPORT));
        assertEquals(16, config.getOption(EpollChannelOption.TCP_FASTOPEN));
        assertTrue(config.getOptions().containsKey(EpollChannelOption.IP_TRANSPARENT));
    }

    @Test
    void acceptedChannelsStartInTheServersModeUnlessAChildOptionSaysOtherwise() throws Exception {
        java.util.concurrent.BlockingQueue<EpollMode> modes = new java.util.concurrent.LinkedBlockingQueue<>();
        ChannelHandler recordMode = new ChannelHandler() {
            @Override
            public void channelActive(io.rill.channel.ChannelHandlerContext ctx) {
                modes.add(((EpollSocketChannelConfig) ctx.channel().config()).getEpollMode());
            }
        };
        Channel lt = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
                .option(EpollChannelOption.EPOLL_MODE, EpollMode.LEVEL_TRIGGERED).childHandler(recordMode)
                .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().getNow();
        java.net.Socket peer = new java.net.Socket("127.0.0.1", ((InetSocketAddress) lt.localAddress()).getPort());
        try {
            assertEquals(EpollMode.LEVEL_TRIGGERED, modes.poll(10, TimeUnit.SECONDS));
        } finally {
            peer.close();
        }
        lt.close().syncUninterruptibly();
    }

    @Test
    void ipTransparentIsSetOrRefusedWithTheSystemsReason() {
        try {
            client.config().setOption(EpollChannelOption.IP_TRANSPARENT, true);
            assertEquals(true, client.config().getOption(EpollChannelOption.IP_TRANSPARENT));
        } catch (ChannelException e) {
            // Needs CAP_NET_ADMIN; the message is the kernel's.
            assertTrue(e.getCause().getMessage().contains("Operation not permitted"), e.getCause().getMessage());
        }
    }

    @Test
    void aLinuxOptionBeyondTheKernelsBoundIsRefusedWhenSetOnABootstrap() {
        InvalidChannelOptionException e = assertThrows(InvalidChannelOptionException.class,
                () -> new ServerBootstrap().childOption(EpollChannelOption.TCP_KEEPCNT, 128));
        assertEquals("TCP_KEEPCNT: 128 (expected: 1..127)", e.getMessage());
        assertThrows(InvalidChannelOptionException.class,
                () -> new Bootstrap().option(EpollChannelOption.TCP_KEEPIDLE, 0));
    }

    @Test
    void aNegativeValueIsRefusedBeforeReachingTheKernel() {
        assertThrows(IllegalArgumentException.class,
                () -> client.config().setOption(EpollChannelOption.TCP_KEEPIDLE, -1));
    }

    @Test
    void tcpInfoDescribesTheEstablishedConnection() {
        TcpInfo info = client.tcpInfo();
        assertEquals(1, info.state(), "TCP_ESTABLISHED: " + info);
        assertTrue(info.sndMss() > 0, info.toString());
    }

    private static <T> void assertSetAndReadBack(io.rill.channel.ChannelConfig config, ChannelOption<T> option, T value) {
        assertTrue(config.setOption(option, value), option + " supported");
        assertEquals(value, config.getOption(option), option.name());
    }
}
