package io.rill.microbench.codec;

import java.nio.charset.StandardCharsets;
import java.util.Random;
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

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.compression.ZlibEncoder;
import io.rill.handler.codec.compression.ZlibWrapper;

/**
 * Throughput of {@link ZlibEncoder} in GZIP mode over text-like messages: one operation
 * compresses (and sync-flushes) one message of {@code size} bytes. Divide by the size for MB/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class GzipEncoderBenchmark {

    @Param({"1024", "65536"})
    public int size;

    @Param({"1", "6"})
    public int level;

    private EmbeddedChannel channel;
    private ByteBuf message;

    @Setup
    public void setUp() {
        channel = new EmbeddedChannel(new ZlibEncoder(ZlibWrapper.GZIP, level));
        StringBuilder text = new StringBuilder();
        Random random = new Random(42);
        while (text.length() < size) {
            text.append("{\"id\":").append(random.nextInt(100_000)).append(",\"name\":\"item\",\"ok\":true}\n");
        }
        message = ByteBufAllocator.DEFAULT.directBuffer(size)
                .writeBytes(text.substring(0, size).getBytes(StandardCharsets.US_ASCII));
    }

    @TearDown
    public void tearDown() {
        message.release();
        channel.finishAndReleaseAll();
    }

    @Benchmark
    public int compress() {
        channel.writeOutbound(message.retainedDuplicate());
        ByteBuf out = channel.readOutbound();
        int n = out.readableBytes();
        out.release();
        return n;
    }
}
