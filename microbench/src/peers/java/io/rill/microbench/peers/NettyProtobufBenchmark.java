package io.rill.microbench.peers;

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

import com.google.protobuf.Struct;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.protobuf.ProtobufDecoder;
import io.netty.handler.codec.protobuf.ProtobufEncoder;
import io.netty.handler.codec.protobuf.ProtobufVarint32LengthFieldPrepender;
import io.rill.microbench.protobuf.ProtobufCodecBenchmark;

/**
 * {@link ProtobufCodecBenchmark} over Netty 4.1's protobuf codec: the same message, encoded with
 * its varint length (Netty's encoder, then its length prepender, as Netty users stack them) and
 * decoded from a pooled direct frame by its {@code ProtobufDecoder}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NettyProtobufBenchmark {

    private Struct message;
    private EmbeddedChannel encoder;
    private EmbeddedChannel decoder;
    private ByteBuf frame;

    @Setup
    public void setUp() {
        message = ProtobufCodecBenchmark.typicalMessage();
        encoder = new EmbeddedChannel(new ProtobufVarint32LengthFieldPrepender(), new ProtobufEncoder());
        decoder = new EmbeddedChannel(new ProtobufDecoder(Struct.getDefaultInstance()));
        byte[] bytes = message.toByteArray();
        frame = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
    }

    @TearDown
    public void tearDown() {
        frame.release();
        encoder.finishAndReleaseAll();
        decoder.finishAndReleaseAll();
    }

    @Benchmark
    public int encode() {
        encoder.writeOutbound(message);
        ByteBuf out = encoder.readOutbound();
        int n = out.readableBytes();
        out.release();
        return n;
    }

    @Benchmark
    public Object decode() {
        decoder.writeInbound(frame.retain()); // neither decoder moves the reader index
        return decoder.readInbound();
    }
}
