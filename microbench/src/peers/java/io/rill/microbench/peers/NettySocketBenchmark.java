package io.rill.microbench.peers;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.Future;

/**
 * Netty 4.1 over epoll and NIO in the shape of Rill's {@code EpollSocketChannelBenchmark}
 * ({@code SocketBenchmarkBase}): the same 64-byte echo round trip and task hand-offs, measured
 * from a thread outside the loops, so the ratios compare like with like.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Dio.netty.leakDetection.level=DISABLED")
public class NettySocketBenchmark {

    private static final int MESSAGE_SIZE = 64;

    @Param({"epoll", "nio"})
    public String transport;

    private EventLoopGroup group;
    private Channel server;
    private Channel client;
    private EventLoop clientLoop;
    private ByteBuf message;
    private final Waiter waiter = new Waiter();
    private final Runnable noop = () -> { };

    @Setup
    public void setUp() throws Exception {
        boolean epoll = transport.equals("epoll");
        group = epoll ? new EpollEventLoopGroup(2) : new NioEventLoopGroup(2);
        server = new ServerBootstrap().group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .childHandler(new Echo()).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        client = new Bootstrap().group(group).channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .handler(waiter).connect(server.localAddress()).sync().channel();
        clientLoop = client.eventLoop();
        message = client.alloc().directBuffer(MESSAGE_SIZE).writeZero(MESSAGE_SIZE);
    }

    @TearDown
    public void tearDown() throws Exception {
        message.release();
        client.close().sync();
        server.close().sync();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
    }

    @Benchmark
    public int pingPong() {
        waiter.expect(MESSAGE_SIZE);
        client.writeAndFlush(message.retainedDuplicate());
        return waiter.await();
    }

    @Benchmark
    public Object executeSingle() throws Exception {
        return clientLoop.submit(noop).sync();
    }

    @Benchmark
    public Object executeMulti() throws Exception {
        Future<?> last = null;
        for (int i = 0; i < 5; i++) {
            last = clientLoop.submit(noop);
        }
        return last.sync();
    }

    @ChannelHandler.Sharable
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Counts echoed bytes on the loop and unparks the benchmark thread once the expected count arrived. */
    private static final class Waiter extends ChannelInboundHandlerAdapter {
        private volatile Thread waiting;
        private volatile int remaining;

        void expect(int bytes) {
            waiting = Thread.currentThread();
            remaining = bytes;
        }

        int await() {
            while (remaining > 0) {
                LockSupport.park(this);
            }
            return MESSAGE_SIZE;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            int left = remaining - buf.readableBytes();
            buf.release();
            remaining = left;
            if (left <= 0) {
                LockSupport.unpark(waiting);
            }
        }
    }
}
