package io.rill.microbench.channel;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.EventLoop;
import io.rill.channel.IoHandlerFactory;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Future;

/**
 * A transport over loopback, measured from a thread outside the loops, as an application sees it:
 * {@code pingPong} is one 64-byte echo round trip (write, flush, poller wake-up on both sides,
 * read); {@code executeSingle} hands one task to the client's loop and waits for it (the wake-up
 * path of a loop blocked in its poller with a socket registered); {@code executeMulti} hands five and
 * waits for the last (wake-ups coalesced by the sleeping flag). A subclass names the transport.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public abstract class SocketBenchmarkBase {

    /** What the benchmarks run over: an I/O handler and the matching channel classes. */
    protected record Transport(IoHandlerFactory ioHandler, Class<? extends Channel> serverChannel,
                               Class<? extends Channel> clientChannel) {
    }

    /** The NIO transport, the baseline others are compared with. */
    protected static final Transport NIO = new Transport(NioIoHandler.newFactory(), NioServerSocketChannel.class,
            NioSocketChannel.class);

    private static final int MESSAGE_SIZE = 64;

    private MultiThreadIoEventLoopGroup group;
    private Channel server;
    private Channel client;
    private EventLoop clientLoop;
    private ByteBuf message;
    private final ReceiveWaiter waiter = new ReceiveWaiter();
    private final Runnable noop = () -> { };

    /** The transport under test; called once per trial, at setup. */
    protected abstract Transport transport();

    @Setup
    public void setUp() throws Exception {
        Transport transport = transport();
        group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("bench", true), transport.ioHandler());
        server = new ServerBootstrap().group(group).channel(transport.serverChannel())
                .childHandler(new Echo()).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        client = new Bootstrap().group(group).channel(transport.clientChannel()).handler(waiter)
                .connect(server.localAddress()).sync().getNow();
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
        waiter.await();
        return MESSAGE_SIZE;
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
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
