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
import io.rill.handler.codec.memcache.binary.BinaryMemcacheEncoder;
import io.rill.handler.codec.memcache.binary.BinaryMemcacheMessage;
import io.rill.handler.codec.memcache.binary.BinaryMemcacheOpcode;
import io.rill.handler.codec.memcache.binary.BinaryMemcacheResponseDecoder;

/**
 * The memcached binary protocol through Rill's codec on an embedded channel, per microsecond:
 * decoding a GET hit (4 bytes of flags, a 128-byte value, from a pooled direct buffer) and
 * encoding a SET of the same item. {@code NettyMemcacheBenchmark} ({@code peers}) does the same with
 * Netty's decoder and aggregator and its encoder:
 * {@code java -jar microbench/target/benchmarks.jar 'MemcacheCodecBenchmark|NettyMemcacheBenchmark' -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MemcacheCodecBenchmark {

    /** The GET response both decode; public for the Netty benchmark. */
    public static byte[] getHit() {
        byte[] value = "x".repeat(128).getBytes(StandardCharsets.US_ASCII);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24 + 4 + value.length);
        b.put((byte) 0x81).put((byte) 0).putShort((short) 0).put((byte) 4).put((byte) 0).putShort((short) 0)
                .putInt(4 + value.length).putInt(7).putLong(99).putInt(0).put(value);
        return b.array();
    }

    /** SET's extras: flags and expiry. */
    public static final byte[] SET_EXTRAS = {0, 0, 0, 0, 0, 0, 0x0e, 0x10};

    private EmbeddedChannel decoder;
    private EmbeddedChannel encoder;
    private ByteBuf wire;
    private byte[] value;

    @Setup
    public void setUp() {
        decoder = new EmbeddedChannel(new BinaryMemcacheResponseDecoder());
        encoder = new EmbeddedChannel(BinaryMemcacheEncoder.INSTANCE);
        byte[] bytes = getHit();
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
        BinaryMemcacheMessage m = decoder.readInbound();
        m.release();
        return m;
    }

    @Benchmark
    public int encodeSet() {
        encoder.writeOutbound(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.SET).key("user:42:profile")
                .extras(SET_EXTRAS).value(Unpooled.wrappedBuffer(value)).build());
        int n = 0;
        for (ByteBuf out; (out = encoder.readOutbound()) != null; ) {
            n += out.readableBytes();
            out.release();
        }
        return n;
    }
}
