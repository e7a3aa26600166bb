package io.rill.microbench.stomp;

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
import io.rill.handler.codec.stomp.StompCommand;
import io.rill.handler.codec.stomp.StompFrame;
import io.rill.handler.codec.stomp.StompFrameDecoder;
import io.rill.handler.codec.stomp.StompFrameEncoder;

/**
 * STOMP frames through Rill's codec on an embedded channel, per microsecond: decoding the MESSAGE a
 * broker delivers (five headers, a 128-byte JSON body, from a pooled direct buffer) and encoding the
 * SEND a client makes of it. {@code NettyStompBenchmark} ({@code peers}) does the same with Netty's
 * decoder and aggregator and its encoder:
 * {@code java -jar microbench/target/benchmarks.jar 'StompCodecBenchmark|NettyStompBenchmark' -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StompCodecBenchmark {

    /** The body both codecs carry; public for the Netty benchmark. */
    public static final String BODY = "{\"order\":123456,\"symbol\":\"RILL\",\"side\":\"buy\",\"quantity\":100,"
            + "\"price\":42.17,\"account\":\"ACC-0099\",\"ts\":1764700000}";
    /** The MESSAGE frame decoded, on the wire. */
    public static final String MESSAGE = "MESSAGE\nsubscription:sub-1\nmessage-id:1000234\ndestination:/topic/orders\n"
            + "content-type:application/json\ncontent-length:" + BODY.length() + "\n\n" + BODY + "\0";

    private EmbeddedChannel decoder;
    private EmbeddedChannel encoder;
    private ByteBuf wire;
    private byte[] body;

    @Setup
    public void setUp() {
        decoder = new EmbeddedChannel(new StompFrameDecoder());
        encoder = new EmbeddedChannel(StompFrameEncoder.INSTANCE);
        byte[] bytes = MESSAGE.getBytes(StandardCharsets.UTF_8);
        wire = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        body = BODY.getBytes(StandardCharsets.UTF_8);
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
        encoder.writeOutbound(StompFrame.of(StompCommand.SEND, Unpooled.wrappedBuffer(body), "destination", "/topic/orders",
                "content-type", "application/json"));
        ByteBuf out = encoder.readOutbound();
        int n = out.readableBytes();
        out.release();
        return n;
    }
}
