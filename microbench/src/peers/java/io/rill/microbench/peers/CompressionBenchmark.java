package io.rill.microbench.peers;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

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

import io.rill.handler.codec.compression.BrotliDecoder;
import io.rill.handler.codec.compression.BrotliEncoder;
import io.rill.handler.codec.compression.Lz4FrameDecoder;
import io.rill.handler.codec.compression.Lz4FrameEncoder;
import io.rill.handler.codec.compression.SnappyFrameDecoder;
import io.rill.handler.codec.compression.SnappyFrameEncoder;
import io.rill.handler.codec.compression.ZlibDecoder;
import io.rill.handler.codec.compression.ZlibEncoder;
import io.rill.handler.codec.compression.ZlibWrapper;
import io.rill.handler.codec.compression.ZstdDecoder;
import io.rill.handler.codec.compression.ZstdEncoder;

/**
 * Rill's compression codecs beside Netty 4.1's, on one 64 KiB text payload (JSON- and HTML-like,
 * fixed seed), in one class so that JMH interleaves the pairs in one run and their ratio means
 * something on a shared machine. Encode: one message into a long-lived stream (each side's
 * encoder flushes it as it does for a response body). Decode: one whole stream (the payload as the
 * same side's encoder wrote it) through a fresh decoder. Same settings where both sides have one:
 * gzip level 6, brotli quality 4 with a 4 MiB window, zstd level 3; Netty's lz4 is lz4-java's block
 * stream, not the LZ4 frame format, so that pair compares the libraries' work, not a wire format.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CompressionBenchmark {

    @Param({"gzip", "brotli", "zstd", "snappy", "lz4"})
    public String format;

    static final int SIZE = 64 * 1024;

    private io.rill.channel.embedded.EmbeddedChannel rillEncoder;
    private io.netty.channel.embedded.EmbeddedChannel nettyEncoder;
    private io.rill.buffer.ByteBuf rillMessage;
    private io.netty.buffer.ByteBuf nettyMessage;
    private byte[] rillWire;
    private byte[] nettyWire;

    /** JSON records and HTML rows from a fixed seed: what a server compresses. */
    static byte[] payload() {
        StringBuilder sb = new StringBuilder();
        Random r = new Random(20261202);
        String[] words = {"alpha", "beta", "gamma", "delta", "order", "customer", "shipped", "pending", "total"};
        while (sb.length() < SIZE) {
            if (r.nextInt(3) == 0) {
                sb.append("<tr class=\"row\"><td>").append(r.nextInt(100_000)).append("</td><td>")
                        .append(words[r.nextInt(words.length)]).append("</td></tr>\n");
            } else {
                sb.append("{\"id\":").append(r.nextInt(1_000_000)).append(",\"status\":\"")
                        .append(words[r.nextInt(words.length)]).append("\",\"amount\":").append(r.nextInt(10_000) / 100.0)
                        .append("},\n");
            }
        }
        return sb.substring(0, SIZE).getBytes(StandardCharsets.US_ASCII);
    }

    private io.rill.channel.ChannelHandler rillEncoderHandler() {
        return switch (format) {
            case "gzip" -> new ZlibEncoder(ZlibWrapper.GZIP, 6);
            case "brotli" -> new BrotliEncoder(4, 22);
            case "zstd" -> new ZstdEncoder(3);
            case "snappy" -> new SnappyFrameEncoder();
            default -> new Lz4FrameEncoder();
        };
    }

    private io.rill.channel.ChannelHandler rillDecoderHandler() {
        return switch (format) {
            case "gzip" -> new ZlibDecoder(ZlibWrapper.GZIP);
            case "brotli" -> new BrotliDecoder();
            case "zstd" -> new ZstdDecoder();
            case "snappy" -> new SnappyFrameDecoder();
            default -> new Lz4FrameDecoder();
        };
    }

    private io.netty.channel.ChannelHandler nettyEncoderHandler() {
        return switch (format) {
            case "gzip" -> new io.netty.handler.codec.compression.JdkZlibEncoder(
                    io.netty.handler.codec.compression.ZlibWrapper.GZIP, 6);
            case "brotli" -> new io.netty.handler.codec.compression.BrotliEncoder(
                    new com.aayushatharva.brotli4j.encoder.Encoder.Parameters().setQuality(4).setWindow(22));
            case "zstd" -> new io.netty.handler.codec.compression.ZstdEncoder(3);
            case "snappy" -> new io.netty.handler.codec.compression.SnappyFrameEncoder();
            default -> new io.netty.handler.codec.compression.Lz4FrameEncoder();
        };
    }

    private io.netty.channel.ChannelHandler nettyDecoderHandler() {
        return switch (format) {
            case "gzip" -> new io.netty.handler.codec.compression.JdkZlibDecoder(
                    io.netty.handler.codec.compression.ZlibWrapper.GZIP, 0);
            case "brotli" -> new io.netty.handler.codec.compression.BrotliDecoder();
            case "zstd" -> new io.netty.handler.codec.compression.ZstdDecoder();
            case "snappy" -> new io.netty.handler.codec.compression.SnappyFrameDecoder(true);
            default -> new io.netty.handler.codec.compression.Lz4FrameDecoder(true);
        };
    }

    @Setup
    public void setUp() {
        byte[] data = payload();
        rillMessage = io.rill.buffer.ByteBufAllocator.DEFAULT.directBuffer(SIZE).writeBytes(data);
        nettyMessage = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(SIZE).writeBytes(data);
        rillEncoder = new io.rill.channel.embedded.EmbeddedChannel(rillEncoderHandler());
        nettyEncoder = new io.netty.channel.embedded.EmbeddedChannel(nettyEncoderHandler());

        io.rill.channel.embedded.EmbeddedChannel r = new io.rill.channel.embedded.EmbeddedChannel(rillEncoderHandler());
        r.writeOutbound(rillMessage.retainedDuplicate());
        r.finish();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (io.rill.buffer.ByteBuf b; (b = r.readOutbound()) != null; ) {
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            out.writeBytes(bytes);
        }
        rillWire = out.toByteArray();

        io.netty.channel.embedded.EmbeddedChannel n = new io.netty.channel.embedded.EmbeddedChannel(nettyEncoderHandler());
        n.writeOutbound(nettyMessage.retainedDuplicate());
        n.finish();
        out.reset();
        for (io.netty.buffer.ByteBuf b; (b = n.readOutbound()) != null; ) {
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            out.writeBytes(bytes);
        }
        nettyWire = out.toByteArray();
        if (rillDecode() != SIZE || nettyDecode() != SIZE) {
            throw new IllegalStateException(format + ": a decoder did not give back the payload");
        }
    }

    @TearDown
    public void tearDown() {
        rillMessage.release();
        nettyMessage.release();
        rillEncoder.finishAndReleaseAll();
        nettyEncoder.finishAndReleaseAll();
    }

    @Benchmark
    public int rillEncode() {
        rillEncoder.writeOutbound(rillMessage.retainedDuplicate());
        int n = 0;
        for (io.rill.buffer.ByteBuf b; (b = rillEncoder.readOutbound()) != null; ) {
            n += b.readableBytes();
            b.release();
        }
        return n;
    }

    @Benchmark
    public int nettyEncode() {
        nettyEncoder.writeOutbound(nettyMessage.retainedDuplicate());
        int n = 0;
        for (io.netty.buffer.ByteBuf b; (b = nettyEncoder.readOutbound()) != null; ) {
            n += b.readableBytes();
            b.release();
        }
        return n;
    }

    @Benchmark
    public int rillDecode() {
        io.rill.channel.embedded.EmbeddedChannel ch = new io.rill.channel.embedded.EmbeddedChannel(rillDecoderHandler());
        ch.writeInbound(io.rill.buffer.ByteBufAllocator.DEFAULT.directBuffer(rillWire.length).writeBytes(rillWire));
        ch.finish();
        int n = 0;
        for (io.rill.buffer.ByteBuf b; (b = ch.readInbound()) != null; ) {
            n += b.readableBytes();
            b.release();
        }
        return n;
    }

    @Benchmark
    public int nettyDecode() {
        io.netty.channel.embedded.EmbeddedChannel ch = new io.netty.channel.embedded.EmbeddedChannel(nettyDecoderHandler());
        ch.writeInbound(io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(nettyWire.length).writeBytes(nettyWire));
        ch.finish();
        int n = 0;
        for (io.netty.buffer.ByteBuf b; (b = ch.readInbound()) != null; ) {
            n += b.readableBytes();
            b.release();
        }
        return n;
    }
}
