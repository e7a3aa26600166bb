package io.rill.microbench.channel;

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

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * What a codec test does per message: writeInbound + readInbound through an echo-ish handler,
 * then writeOutbound + readOutbound; covers the head (outbound buffer, flush, doWrite), the tail
 * and the embedded loop's task runs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EmbeddedRoundTripBenchmark {

    private static final Integer MSG = 42;

    private EmbeddedChannel channel;

    @Setup
    public void setUp() {
        channel = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.fireChannelRead(msg);
            }
        });
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    @Benchmark
    public Object roundTrip() {
        channel.writeInbound(MSG);
        Object in = channel.readInbound();
        channel.writeOutbound(in);
        return channel.readOutbound();
    }
}
