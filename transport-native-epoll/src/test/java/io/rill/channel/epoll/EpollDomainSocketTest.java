package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.MultiThreadIoEventLoopGroup;

/** What only Unix-domain sockets do: pass descriptors and name the peer. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EpollDomainSocketTest {

    @TempDir
    Path dir;
    private EventLoopGroup group;

    @BeforeEach
    void setUp() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        group = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (group != null) {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aPassedDescriptorReadsTheSameFileOnTheOtherSide() throws Exception {
        Path file = Files.write(dir.resolve("secret.txt"), "passed along".getBytes());
        BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        Channel server = new ServerBootstrap().group(group).channel(EpollServerDomainSocketChannel.class)
                .childOption(EpollChannelOption.DOMAIN_READ_FILE_DESCRIPTORS, true)
                .childHandler(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        received.add(msg);
                    }
                })
                .bind(UnixDomainSocketAddress.of(dir.resolve("s.sock"))).syncUninterruptibly().getNow();
        Channel client = new Bootstrap().group(group).channel(EpollDomainSocketChannel.class)
                .handler(new ChannelHandler() { })
                .connect(server.localAddress()).syncUninterruptibly().getNow();
        FileDescriptor sent = new FileDescriptor(Native.openReadOnly(file.toString()));
        client.writeAndFlush(sent).syncUninterruptibly();
        sent.close(); // the receiver has its own copy now
        FileDescriptor got = (FileDescriptor) received.poll(10, TimeUnit.SECONDS);
        assertTrue(got != null, "a descriptor arrived");
        Path seen = Files.readSymbolicLink(Path.of("/proc/self/fd/" + got.intValue()));
        assertEquals(file.toRealPath(), seen, "the received descriptor opens the sent file");
        got.close();
        assertFalse(got.isOpen());
        client.close().syncUninterruptibly();
        server.close().syncUninterruptibly();
        assertFalse(Files.exists(dir.resolve("s.sock")), "the server deleted its socket file");
    }

    @Test
    void peerCredentialsNameThisProcessAndBytesStillFlow() throws Exception {
        BlockingQueue<EpollDomainSocketChannel> children = new LinkedBlockingQueue<>();
        BlockingQueue<Integer> bytes = new LinkedBlockingQueue<>();
        Channel server = new ServerBootstrap().group(group).channel(EpollServerDomainSocketChannel.class)
                .childHandler(new ChannelHandler() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        children.add((EpollDomainSocketChannel) ctx.channel());
                    }

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        io.rill.buffer.ByteBuf buf = (io.rill.buffer.ByteBuf) msg;
                        bytes.add(buf.readableBytes());
                        buf.release();
                    }
                })
                .bind(UnixDomainSocketAddress.of(dir.resolve("c.sock"))).syncUninterruptibly().getNow();
        EpollDomainSocketChannel client = (EpollDomainSocketChannel) new Bootstrap().group(group)
                .channel(EpollDomainSocketChannel.class).handler(new ChannelHandler() { })
                .connect(server.localAddress()).syncUninterruptibly().getNow();
        EpollDomainSocketChannel child = children.poll(10, TimeUnit.SECONDS);
        PeerCredentials peer = child.peerCredentials();
        assertEquals(ProcessHandle.current().pid(), peer.pid());
        assertEquals(server.localAddress(), client.remoteAddress());
        assertNull(client.config().getOption(ChannelOption.TCP_NODELAY), "no TCP options on a Unix-domain socket");
        assertFalse(client.config().setOption(EpollChannelOption.TCP_CORK, true));
        client.writeAndFlush(client.alloc().directBuffer().writeBytes(new byte[] {1, 2, 3})).syncUninterruptibly();
        int total = 0;
        while (total < 3) {
            Integer n = bytes.poll(10, TimeUnit.SECONDS);
            assertTrue(n != null, "bytes arrived");
            total += n;
        }
        assertEquals(3, total);
        client.close().syncUninterruptibly();
        server.close().syncUninterruptibly();
    }
}
