package io.rill.microbench.protobuf;

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

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.protobuf.ProtobufDecoder;
import io.rill.handler.codec.protobuf.ProtobufEncoder;

/**
 * Protobuf messages through Rill's codec on an embedded channel, per microsecond: a typical
 * request-sized {@link Struct} (ten fields of strings, numbers and a list; 250 bytes or so)
 * encoded with its varint length ({@code ProtobufEncoder.DELIMITED}) and decoded from a pooled
 * direct frame. {@code NettyProtobufBenchmark} ({@code peers}) does the same with Netty's
 * {@code ProtobufEncoder} plus {@code ProtobufVarint32LengthFieldPrepender} and its
 * {@code ProtobufDecoder}:
 * {@code java -jar microbench/target/benchmarks.jar 'ProtobufCodecBenchmark|NettyProtobufBenchmark' -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProtobufCodecBenchmark {

    private Struct message;
    private EmbeddedChannel encoder;
    private EmbeddedChannel decoder;
    private ByteBuf frame;

    /** The message both codecs are measured on; public for the Netty benchmark. */
    public static Struct typicalMessage() {
        Struct.Builder b = Struct.newBuilder();
        for (int i = 0; i < 6; i++) {
            b.putFields("field" + i, Value.newBuilder().setStringValue("value number " + i).build());
        }
        b.putFields("port", Value.newBuilder().setNumberValue(8443).build());
        b.putFields("ratio", Value.newBuilder().setNumberValue(0.75).build());
        b.putFields("enabled", Value.newBuilder().setBoolValue(true).build());
        b.putFields("tags", Value.newBuilder().setListValue(ListValue.newBuilder()
                .addValues(Value.newBuilder().setStringValue("fast"))
                .addValues(Value.newBuilder().setStringValue("safe"))).build());
        return b.build();
    }

    @Setup
    public void setUp() {
        message = typicalMessage();
        encoder = new EmbeddedChannel(ProtobufEncoder.DELIMITED);
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
