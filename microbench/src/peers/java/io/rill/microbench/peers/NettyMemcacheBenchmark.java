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
import io.netty.handler.codec.memcache.binary.BinaryMemcacheObjectAggregator;
import io.netty.handler.codec.memcache.binary.BinaryMemcacheOpcodes;
import io.netty.handler.codec.memcache.binary.BinaryMemcacheRequestEncoder;
import io.netty.handler.codec.memcache.binary.BinaryMemcacheResponseDecoder;
import io.netty.handler.codec.memcache.binary.DefaultFullBinaryMemcacheRequest;
import io.netty.handler.codec.memcache.binary.FullBinaryMemcacheRequest;
import io.netty.handler.codec.memcache.binary.FullBinaryMemcacheResponse;
import io.rill.microbench.memcache.MemcacheCodecBenchmark;

/** {@link MemcacheCodecBenchmark} over Netty 4.1's binary memcache codec, its decoder followed by its aggregator. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NettyMemcacheBenchmark {

    private EmbeddedChannel decoder;
    private EmbeddedChannel encoder;
    private ByteBuf wire;
    private byte[] value;

    @Setup
    public void setUp() {
        decoder = new EmbeddedChannel(new BinaryMemcacheResponseDecoder(), new BinaryMemcacheObjectAggregator(1 << 20));
        encoder = new EmbeddedChannel(new BinaryMemcacheRequestEncoder());
        byte[] bytes = MemcacheCodecBenchmark.getHit();
        wire = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        value = "x".repeat(128).getBytes(StandardCharsets.US_ASCII);
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
        FullBinaryMemcacheResponse m = decoder.readInbound();
        m.release();
        return m;
    }

    @Benchmark
    public int encodeSet() {
        FullBinaryMemcacheRequest set = new DefaultFullBinaryMemcacheRequest(
                Unpooled.copiedBuffer("user:42:profile", StandardCharsets.US_ASCII),
                Unpooled.wrappedBuffer(MemcacheCodecBenchmark.SET_EXTRAS), Unpooled.wrappedBuffer(value));
        set.setOpcode(BinaryMemcacheOpcodes.SET);
        encoder.writeOutbound(set);
        int n = 0;
        for (ByteBuf out; (out = encoder.readOutbound()) != null; ) {
            n += out.readableBytes();
            out.release();
        }
        return n;
    }
}
