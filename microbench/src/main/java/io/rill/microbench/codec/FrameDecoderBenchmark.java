package io.rill.microbench.codec;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.handler.codec.Cumulator;
import io.rill.handler.codec.LengthFieldBasedFrameDecoder;
import io.rill.handler.codec.LineBasedFrameDecoder;

/**
 * Frames decoded per second by the length-field and line decoders, with either cumulator, when
 * the bytes arrive as one big read or cut into reads of {@code readSize} bytes (so frames
 * straddle reads and the cumulator does real work). One operation = one frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class FrameDecoderBenchmark {

    static final int FRAMES = 256;

    @Param({"lengthField", "line"})
    public String decoder;

    @Param({"MERGE", "COMPOSITE"})
    public String cumulator;

    /** Bytes per read; 0 means all frames in one read. */
    @Param({"0", "1000"})
    public int readSize;

    /** Frame size in bytes (header or line ending included). */
    @Param({"64", "4096"})
    public int frameSize;

    private EmbeddedChannel channel;
    private ChannelPipeline pipeline;
    private ByteBuf wire;

    @Setup
    public void setUp() {
        ByteToMessageDecoder d = decoder.equals("line") ? new LineBasedFrameDecoder(1 << 16)
                : new LengthFieldBasedFrameDecoder(1 << 16, 0, 4, 0, 4);
        d.setCumulator(cumulator.equals("MERGE") ? Cumulator.MERGE : Cumulator.COMPOSITE);
        channel = new EmbeddedChannel(d, new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ((ByteBuf) msg).release();
            }
        });
        pipeline = channel.pipeline();
        wire = ByteBufAllocator.DEFAULT.directBuffer(FRAMES * frameSize);
        byte[] body = "x".repeat(frameSize).getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < FRAMES; i++) {
            if (decoder.equals("line")) {
                wire.writeBytes(body, 0, frameSize - 2).writeByte('\r').writeByte('\n');
            } else {
                wire.writeInt(frameSize - 4).writeBytes(body, 0, frameSize - 4);
            }
        }
    }

    @TearDown
    public void tearDown() {
        wire.release();
        channel.finishAndReleaseAll();
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public void decode() {
        int total = wire.readableBytes();
        int step = readSize == 0 ? total : readSize;
        for (int off = 0; off < total; off += step) {
            pipeline.fireChannelRead(wire.retainedSlice(off, Math.min(step, total - off)));
        }
        pipeline.fireChannelReadComplete();
    }
}
