package io.rill.microbench.peers;

import java.nio.charset.StandardCharsets;
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

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.stomp.DefaultStompFrame;
import io.netty.handler.codec.stomp.StompCommand;
import io.netty.handler.codec.stomp.StompFrame;
import io.netty.handler.codec.stomp.StompHeaders;
import io.netty.handler.codec.stomp.StompSubframeAggregator;
import io.netty.handler.codec.stomp.StompSubframeDecoder;
import io.netty.handler.codec.stomp.StompSubframeEncoder;
import io.rill.microbench.stomp.StompCodecBenchmark;

/** {@link StompCodecBenchmark} over Netty 4.1's STOMP codec, its decoder followed by its aggregator. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NettyStompBenchmark {

    private EmbeddedChannel decoder;
    private EmbeddedChannel encoder;
    private ByteBuf wire;
    private byte[] body;

    @Setup
    public void setUp() {
        decoder = new EmbeddedChannel(new StompSubframeDecoder(), new StompSubframeAggregator(1 << 20));
        encoder = new EmbeddedChannel(new StompSubframeEncoder());
        byte[] bytes = StompCodecBenchmark.MESSAGE.getBytes(StandardCharsets.UTF_8);
        wire = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        body = StompCodecBenchmark.BODY.getBytes(StandardCharsets.UTF_8);
    }

    @TearDown
    public void tearDown() {
        wire.release();
        decoder.finishAndReleaseAll();
        encoder.finishAndReleaseAll();
    }

    @Benchmark
    public Object decodeMessage() {
        decoder.writeInbound(wire.retainedDuplicate());
        StompFrame frame = decoder.readInbound();
        frame.release();
        return frame;
    }

    @Benchmark
    public int encodeSend() {
        StompFrame send = new DefaultStompFrame(StompCommand.SEND, Unpooled.wrappedBuffer(body));
        send.headers().set(StompHeaders.DESTINATION, "/topic/orders").set(StompHeaders.CONTENT_TYPE, "application/json")
                .setInt(StompHeaders.CONTENT_LENGTH, body.length);
        encoder.writeOutbound(send);
        int n = 0;
        for (ByteBuf out; (out = encoder.readOutbound()) != null; ) {
            n += out.readableBytes();
            out.release();
        }
        return n;
    }
}
