package io.rill.microbench.channel;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

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

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.handler.flush.FlushConsolidationHandler;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * What {@code FlushConsolidationHandler} saves: a server answers each request with
 * {@value #ANSWERS} small {@code writeAndFlush}es (a pipelining client's burst), over NIO
 * loopback. Without consolidation that is one {@code write(2)} per answer; with it, one per
 * read burst. Measured as round trips of one request and all its answers.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FlushConsolidationBenchmark {

    private static final int ANSWERS = 32;
    private static final int ANSWER_SIZE = 32;

    @Param({"false", "true"})
    public boolean consolidate;

    private MultiThreadIoEventLoopGroup group;
    private Channel server;
    private Channel client;
    private ByteBuf request;
    private final ReceiveWaiter waiter = new ReceiveWaiter();

    @Setup
    public void setUp() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("bench", true), NioIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (consolidate) {
                            ch.pipeline().addLast(new FlushConsolidationHandler());
                        }
                        ch.pipeline().addLast(new Answerer());
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        client = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(waiter)
                .connect(server.localAddress()).sync().getNow();
        request = client.alloc().directBuffer(8).writeLong(1);
    }

    @TearDown
    public void tearDown() throws Exception {
        request.release();
        client.close().sync();
        server.close().sync();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
    }

    @Benchmark
    public int requestWithManyAnswers() {
        waiter.expect(ANSWERS * ANSWER_SIZE);
        client.writeAndFlush(request.retainedDuplicate());
        waiter.await();
        return ANSWERS;
    }

    /** Answers every read with ANSWERS separate writeAndFlush calls. */
    private static final class Answerer implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ((ByteBuf) msg).release();
            for (int i = 0; i < ANSWERS; i++) {
                ctx.writeAndFlush(ctx.alloc().directBuffer(ANSWER_SIZE).writeZero(ANSWER_SIZE));
            }
        }
    }
}
