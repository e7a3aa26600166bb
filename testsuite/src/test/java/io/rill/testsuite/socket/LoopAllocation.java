package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.EventLoop;
import io.rill.channel.IoHandlerFactory;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollServerSocketChannel;
import io.rill.channel.epoll.EpollSocketChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.ResourceLeakDetector;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * What the steady-state allocation tests share: the JVM's per-thread allocation counter read for
 * an event loop's thread, and a client that repeats one exchange over and over.
 */
final class LoopAllocation {

    private LoopAllocation() {
    }

    /** The id of {@code loop}'s thread. */
    static long threadId(EventLoop loop) throws Exception {
        return loop.submit(() -> Thread.currentThread().getId()).get(10, TimeUnit.SECONDS);
    }

    /** Bytes the thread has allocated so far; exact, whatever else the machine does. */
    static long allocatedBytes(long threadId) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = mx.getThreadAllocatedBytes(threadId);
        assertTrue(bytes >= 0, "per-thread allocation counting is not supported by this JVM");
        return bytes;
    }

    /**
     * A server and a client over one transport ("nio" or "epoll"; the test is skipped where epoll
     * is unavailable), each on an event loop of one thread, with leak detection off until closed:
     * tracking allocates a record per buffer by design, which is not what is measured.
     */
    static final class Pair implements AutoCloseable {
        private final boolean epoll;
        private final MultiThreadIoEventLoopGroup serverGroup;
        private final MultiThreadIoEventLoopGroup clientGroup;
        private final ResourceLeakDetector.Level savedLevel = ResourceLeakDetector.level();
        private Channel server;
        private Channel client;

        Pair(String transport) {
            epoll = transport.equals("epoll");
            Assumptions.assumeTrue(!epoll || Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
            IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
            serverGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("alloc-server", true), io);
            clientGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("alloc-client", true), io);
        }

        /** Starts the server with {@code childHandler}, then connects the client, whose pipeline is {@code exchange}. */
        Pair connect(ChannelHandler childHandler, RepeatedExchange exchange) throws InterruptedException {
            server = new ServerBootstrap().group(serverGroup)
                    .channelFactory(epoll ? EpollServerSocketChannel::new : NioServerSocketChannel::new)
                    .childHandler(childHandler).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
            client = new Bootstrap().group(clientGroup).channelFactory(epoll ? EpollSocketChannel::new : NioSocketChannel::new)
                    .handler(exchange).connect(server.localAddress()).sync().getNow();
            return this;
        }

        /**
         * Runs {@code warmUp} exchanges, then {@code measured} more, and returns the bytes the
         * server's loop allocated per measured exchange; {@code clientBytes}, if not null, gets the
         * client loop's figure.
         */
        double serverBytesPerExchange(RepeatedExchange exchange, int warmUp, int measured, double[] clientBytes)
                throws Exception {
            exchange.run(client, warmUp).get(60, TimeUnit.SECONDS);
            long serverThread = threadId(serverGroup.next());
            long clientThread = threadId(clientGroup.next());
            long serverBefore = allocatedBytes(serverThread);
            long clientBefore = allocatedBytes(clientThread);
            exchange.run(client, measured).get(60, TimeUnit.SECONDS);
            if (clientBytes != null) {
                clientBytes[0] = (double) (allocatedBytes(clientThread) - clientBefore) / measured;
            }
            return (double) (allocatedBytes(serverThread) - serverBefore) / measured;
        }

        @Override
        public void close() throws InterruptedException {
            try {
                if (client != null) {
                    client.close().awaitUninterruptibly(10, TimeUnit.SECONDS);
                }
                if (server != null) {
                    server.close().awaitUninterruptibly(10, TimeUnit.SECONDS);
                }
                assertTrue(serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
                assertTrue(clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
            } finally {
                ResourceLeakDetector.setLevel(savedLevel);
            }
        }
    }

    /**
     * Sends {@code message}, waits until {@code replyBytes} bytes came back, repeats; runs on the
     * client's loop with the void promise, so the client adds no garbage of its own per exchange.
     */
    static final class RepeatedExchange implements ChannelHandler {
        private final byte[] message;
        private final long replyBytes;
        private ChannelHandlerContext ctx;
        private int left;
        private long pendingBytes;
        private CompletableFuture<Void> done;

        RepeatedExchange(byte[] message, long replyBytes) {
            this.message = message;
            this.replyBytes = replyBytes;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        /** Runs {@code count} exchanges; completes when the last reply is in. */
        CompletableFuture<Void> run(Channel channel, int count) {
            CompletableFuture<Void> result = new CompletableFuture<>();
            channel.eventLoop().execute(() -> {
                done = result;
                left = count;
                send();
            });
            return result;
        }

        private void send() {
            pendingBytes = replyBytes;
            ByteBuf buf = ctx.alloc().directBuffer(message.length).writeBytes(message);
            ctx.writeAndFlush(buf, ctx.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            pendingBytes -= buf.readableBytes();
            buf.release();
            if (pendingBytes > 0) {
                return;
            }
            if (--left == 0) {
                done.complete(null);
            } else {
                send();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
            ctx.close();
        }
    }

    /** Writes each message back with the shared void promise and flushes once per read burst. */
    @ChannelHandler.Sharable
    static final class VoidEcho implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
