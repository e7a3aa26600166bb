package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.FixedRecvByteBufAllocator;
import io.rill.channel.MultiThreadIoEventLoopGroup;

/**
 * Reads that stop before the socket is drained. Edge-triggered epoll announces the input once;
 * the channel must come back for the rest by itself (AUTO_READ) or at the next read(), never
 * wait for an event that will not come. The peer sends everything up front and then nothing.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EpollEdgeTriggeredReadTest {

    /** 64 reads of 16 bytes, each burst cut short by MAX_MESSAGES_PER_READ = 1. */
    private static final int TOTAL = 1024;
    private static final int CHUNK = 16;

    private EventLoopGroup group;

    @BeforeEach
    void setUp() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (group != null) {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(EpollMode.class)
    void aBurstCutShortByMaxMessagesPerReadReadsTheRestWithoutNewInput(EpollMode mode) throws Exception {
        AtomicInteger received = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(1);
        ChannelHandler counter = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                if (received.addAndGet(buf.readableBytes()) == TOTAL) {
                    all.countDown();
                }
                buf.release();
            }
        };
        Channel server = bind(mode, true, counter);
        Socket peer = connectAndSend(server);
        try {
            assertTrue(all.await(10, TimeUnit.SECONDS), "received " + received.get() + " of " + TOTAL + " bytes");
        } finally {
            peer.close();
            server.close().await(5, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(EpollMode.class)
    void withAutoReadOffEveryReadDeliversTheNextChunkOfWhatIsAlreadyThere(EpollMode mode) throws Exception {
        BlockingQueue<Integer> chunks = new LinkedBlockingQueue<>();
        ChannelHandler readOnDemand = new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.read();
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                chunks.add(((ByteBuf) msg).readableBytes());
                ((ByteBuf) msg).release();
            }
        };
        Channel server = bind(mode, false, readOnDemand);
        BlockingQueue<Channel> children = childrenOf(server);
        Socket peer = connectAndSend(server);
        try {
            Channel child = children.poll(10, TimeUnit.SECONDS);
            int total = 0;
            while (total < TOTAL) {
                Integer n = chunks.poll(10, TimeUnit.SECONDS);
                assertTrue(n != null, "read() delivered nothing after " + total + " of " + TOTAL + " bytes");
                assertEquals(CHUNK, n);
                total += n;
                assertTrue(chunks.isEmpty(), "one read() delivers one burst of one message");
                child.read();
            }
        } finally {
            peer.close();
            server.close().await(5, TimeUnit.SECONDS);
        }
    }

    private Channel bind(EpollMode mode, boolean autoRead, ChannelHandler childHandler) {
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
                .childOption(EpollChannelOption.EPOLL_MODE, mode)
                .childOption(ChannelOption.MAX_MESSAGES_PER_READ, 1)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(CHUNK))
                .childOption(ChannelOption.AUTO_READ, autoRead)
                .childHandler(childHandler);
        return bootstrap.bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().getNow();
    }

    /** The server's accepted channels, as they become active. */
    private static BlockingQueue<Channel> childrenOf(Channel server) {
        BlockingQueue<Channel> children = new LinkedBlockingQueue<>();
        server.pipeline().addFirst(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                children.add((Channel) msg);
                ctx.fireChannelRead(msg);
            }
        });
        return children;
    }

    /** A JDK client that sends all TOTAL bytes at once, then stays connected and silent. */
    private static Socket connectAndSend(Channel server) throws Exception {
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        Socket peer = new Socket(address.getAddress(), address.getPort());
        OutputStream out = peer.getOutputStream();
        out.write(new byte[TOTAL]);
        out.flush();
        return peer;
    }
}
