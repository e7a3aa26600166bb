package io.rill.microbench.http;

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
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.rill.handler.codec.http.websocketx.WebSocketFrameEncoder;

/**
 * One WebSocket text frame of {@code size} ASCII bytes, decoded (with its UTF-8 check) and encoded,
 * masked (a client's frames, as a server reads them) or not. One operation = one frame. Compressed
 * frames (permessage-deflate) are measured by {@link WebSocketDeflateBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class WebSocketFrameBenchmark {

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
        java.util.Arrays.fill(payload, (byte) 'a');
        encoding = new EmbeddedChannel(new WebSocketFrameEncoder(masked));
        encoding.writeOutbound(new TextWebSocketFrame(Unpooled.wrappedBuffer(payload)));
        wire = Unpooled.directBuffer(size + 14);
        for (ByteBuf b; (b = encoding.readOutbound()) != null; b.release()) {
            wire.writeBytes(b);
        }
        WebSocketDecoderConfig config = new WebSocketDecoderConfig(1 << 20, 1 << 20, masked, 0);
        decoding = new EmbeddedChannel(new WebSocketFrameDecoder(config));
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
