package io.rill.microbench.channel;

import java.io.ByteArrayInputStream;
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
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.stream.ChunkedStream;
import io.rill.handler.stream.ChunkedWriteHandler;

/**
 * The cost {@code ChunkedWriteHandler} adds per chunk: a 1 MiB in-memory {@link ChunkedStream}
 * written through an {@link EmbeddedChannel} (no socket, so what is left is reading the chunk,
 * the write promise and listener, and the outbound buffer), at two chunk sizes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChunkedWriteBenchmark {

    private static final byte[] BODY = new byte[1 << 20];

    @Param({"8192", "65536"})
    public int chunkSize;

    private EmbeddedChannel channel;

    @Setup
    public void setUp() {
        channel = new EmbeddedChannel(new ChunkedWriteHandler());
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** One whole body per operation; the score is bodies (MiB) per second. */
    @Benchmark
    public int writeOneMebibyte() {
        channel.writeAndFlush(new ChunkedStream(new ByteArrayInputStream(BODY), chunkSize));
        int chunks = 0;
        for (ByteBuf chunk; (chunk = channel.readOutbound()) != null; chunks++) {
            chunk.release();
        }
        return chunks;
    }
}
