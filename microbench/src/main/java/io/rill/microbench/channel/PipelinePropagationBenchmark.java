package io.rill.microbench.channel;

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
import org.openjdk.jmh.infra.Blackhole;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * One channelRead through a pipeline of {@code extraHandlers} pass-through handlers and a sink,
 * on an {@link EmbeddedChannel}. {@code skippable} handlers override nothing, so the pipeline's
 * mask walks past them; {@code forwarding} ones override channelRead just to call
 * {@code ctx.fireChannelRead}, costing a real call per hop. The ratio against 0 handlers is the
 * per-hop overhead. {@code writeInbound} measures the same pipeline the way a codec test drives
 * it: {@code EmbeddedChannel.writeInbound} (channelRead, channelReadComplete, pending tasks,
 * exception check), with the message consumed by the sink.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PipelinePropagationBenchmark {

    private static final Object MSG = new Object();

    @Param({"0", "4", "8"})
    public int extraHandlers;

    @Param({"skippable", "forwarding"})
    public String kind;

    private EmbeddedChannel channel;
    private ChannelPipeline pipeline;

    /** Overrides nothing. */
    @ChannelHandler.Sharable
    static final class Skippable implements ChannelHandler {
    }

    /** Overrides channelRead only to forward. */
    @ChannelHandler.Sharable
    static final class Forwarding implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.fireChannelRead(msg);
        }
    }

    /** Consumes the message, so nothing queues up at the tail. */
    static final class Sink implements ChannelHandler {
        Blackhole blackhole;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            blackhole.consume(msg);
        }
    }

    @Setup
    public void setUp(Blackhole blackhole) {
        channel = new EmbeddedChannel();
        pipeline = channel.pipeline();
        ChannelHandler extra = kind.equals("skippable") ? new Skippable() : new Forwarding();
        for (int i = 0; i < extraHandlers; i++) {
            pipeline.addLast(extra);
        }
        Sink sink = new Sink();
        sink.blackhole = blackhole;
        pipeline.addLast(sink);
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    @Benchmark
    public void fireChannelRead() {
        pipeline.fireChannelRead(MSG);
    }

    @Benchmark
    public boolean writeInbound() {
        return channel.writeInbound(MSG);
    }
}
