package io.rill.microbench.memcache;

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

import io.rill.buffer.ByteBuf;
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.memcache.text.TextMemcacheCommand;
import io.rill.handler.codec.memcache.text.TextMemcacheRequest;
import io.rill.handler.codec.memcache.text.TextMemcacheRequestEncoder;
import io.rill.handler.codec.memcache.text.TextMemcacheResponse;
import io.rill.handler.codec.memcache.text.TextMemcacheResponseDecoder;

/**
 * The memcached text protocol through Rill's codec on an embedded channel, per microsecond: decoding
 * a get hit ({@code VALUE}, a 128-byte value, {@code END}, from a pooled direct buffer) and encoding
 * a set of the same item. Netty has no text-protocol codec, so there is no peer; compare with
 * {@code MemcacheCodecBenchmark}, the binary protocol's same two operations:
 * {@code java -jar microbench/target/benchmarks.jar 'MemcacheCodecBenchmark|TextMemcacheCodecBenchmark' -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TextMemcacheCodecBenchmark {

    private EmbeddedChannel decoder;
    private EmbeddedChannel encoder;
    private ByteBuf wire;
    private byte[] value;

    @Setup
    public void setUp() {
        decoder = new EmbeddedChannel(new TextMemcacheResponseDecoder());
        encoder = new EmbeddedChannel(TextMemcacheRequestEncoder.INSTANCE);
        value = "x".repeat(128).getBytes(StandardCharsets.US_ASCII);
        byte[] bytes = ("VALUE user:42:profile 0 128\r\n" + "x".repeat(128) + "\r\nEND\r\n").getBytes(StandardCharsets.US_ASCII);
        wire = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
    }

    @TearDown
    public void tearDown() {
        wire.release();
        decoder.finishAndReleaseAll();
        encoder.finishAndReleaseAll();
    }

    @Benchmark
    public Object decodeGetHit() {
        decoder.writeInbound(wire.retainedDuplicate());
        TextMemcacheResponse m = decoder.readInbound();
        m.release();
        return decoder.readInbound();
    }

    @Benchmark
    public int encodeSet() {
        encoder.writeOutbound(TextMemcacheRequest.store(TextMemcacheCommand.SET, "user:42:profile", 0, 3600,
                Unpooled.wrappedBuffer(value)));
        int n = 0;
        for (ByteBuf out; (out = encoder.readOutbound()) != null; ) {
            n += out.readableBytes();
            out.release();
        }
        return n;
    }
}
