package io.rill.microbench.peers;

import java.util.Arrays;
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

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.Utf8FrameValidator;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;

/**
 * Netty 4.1's side of {@link io.rill.microbench.http.WebSocketFrameBenchmark}, the same shapes: one
 * text frame of {@code size} ASCII bytes decoded (with the UTF-8 check Netty's server protocol
 * handler adds, {@link Utf8FrameValidator}) and encoded, masked or not, through an
 * {@link EmbeddedChannel} with the pooled allocator. One operation = one frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class NettyWebSocketFrameBenchmark {

    @Param({"64", "16384"})
    public int size;

    @Param({"true", "false"})
    public boolean masked;

    private byte[] payload;
    private ByteBuf wire;
    private EmbeddedChannel decoding;
    private EmbeddedChannel encoding;

    @Setup
    public void setUp() {
        payload = new byte[size];
        Arrays.fill(payload, (byte) 'a');
        encoding = new EmbeddedChannel(new WebSocket08FrameEncoder(masked));
        encoding.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        encoding.writeOutbound(new TextWebSocketFrame(Unpooled.wrappedBuffer(payload)));
        wire = Unpooled.directBuffer(size + 14);
        for (ByteBuf b; (b = encoding.readOutbound()) != null; b.release()) {
            wire.writeBytes(b);
        }
        WebSocketDecoderConfig config = WebSocketDecoderConfig.newBuilder().expectMaskedFrames(masked)
                .maxFramePayloadLength(1 << 20).allowMaskMismatch(false).build();
        decoding = new EmbeddedChannel(new WebSocket08FrameDecoder(config), new Utf8FrameValidator());
        decoding.config().setAllocator(PooledByteBufAllocator.DEFAULT);
    }

    @TearDown
    public void tearDown() {
        wire.release();
        decoding.finishAndReleaseAll();
        encoding.finishAndReleaseAll();
    }

    @Benchmark
    public int decode() {
        decoding.writeInbound(wire.retainedDuplicate());
        WebSocketFrame frame = decoding.readInbound();
        int n = frame.content().readableBytes();
        frame.release();
        return n;
    }

    @Benchmark
    public int encode() {
        encoding.writeOutbound(new TextWebSocketFrame(Unpooled.wrappedBuffer(payload)));
        int n = 0;
        for (ByteBuf b; (b = encoding.readOutbound()) != null; b.release()) {
            n += b.readableBytes();
        }
        return n;
    }
}
