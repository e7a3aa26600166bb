package io.rill.microbench.channel;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.EventLoop;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.local.LocalAddress;
import io.rill.channel.local.LocalChannel;
import io.rill.channel.local.LocalIoHandler;
import io.rill.channel.local.LocalServerChannel;
import io.rill.channel.pool.ChannelPool;
import io.rill.channel.pool.ChannelPoolHandler;
import io.rill.channel.pool.FixedChannelPool;
import io.rill.channel.pool.SimpleChannelPool;

/**
 * What an acquire and a release of an idle, healthy channel cost in {@link SimpleChannelPool} and
 * {@link FixedChannelPool} (max 1, so every acquire takes the one slot and every release frees it),
 * over the in-VM local transport. {@code onLoop}: 1000 acquire/release pairs run on the pool's own
 * event loop, where every future completes inline, so the score is the pools' bookkeeping;
 * {@code fromCaller}: one pair from the benchmark thread, which adds two hand-offs to the loop and
 * two waits, the cost an application thread sees.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChannelPoolBenchmark {

    private static final int PAIRS = 1000;

    /** The server side: nothing is ever written, so nothing to read. */
    @ChannelHandler.Sharable
    static final class Quiet implements ChannelHandler {
    }

    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;
    private Channel server;
    private SimpleChannelPool simple;
    private FixedChannelPool fixed;

    @Setup
    public void setUp() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
        loop = group.next();
        server = new ServerBootstrap().group(group).channelFactory(LocalServerChannel::new)
                .childHandler(new Quiet()).bind(LocalAddress.ANY).sync().getNow();
        ChannelPoolHandler handler = ch -> { };
        Bootstrap client = new Bootstrap().group(group).channelFactory(LocalChannel::new)
                .remoteAddress(server.localAddress());
        simple = SimpleChannelPool.builder(client, loop, handler).build();
        fixed = FixedChannelPool.builder(SimpleChannelPool.builder(client, loop, handler)).maxConnections(1).build();
        fromCaller(simple); // connects the one channel each pool then reuses
        fromCaller(fixed);
    }

    @TearDown
    public void tearDown() throws Exception {
        simple.closeAsync().sync();
        fixed.closeAsync().sync();
        server.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public Object simpleOnLoop() throws Exception {
        return loop.submit(onLoop(simple)).get();
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public Object fixedOnLoop() throws Exception {
        return loop.submit(onLoop(fixed)).get();
    }

    @Benchmark
    public Object simpleFromCaller() {
        return fromCaller(simple);
    }

    @Benchmark
    public Object fixedFromCaller() {
        return fromCaller(fixed);
    }

    private static Callable<Channel> onLoop(ChannelPool pool) {
        return () -> {
            Channel ch = null;
            for (int i = 0; i < PAIRS; i++) {
                ch = pool.acquire().getNow(); // done inline: the pool's executor is this loop
                pool.release(ch);
            }
            return ch;
        };
    }

    private static Channel fromCaller(ChannelPool pool) {
        Channel ch = pool.acquire().syncUninterruptibly().getNow();
        pool.release(ch).syncUninterruptibly();
        return ch;
    }
}
