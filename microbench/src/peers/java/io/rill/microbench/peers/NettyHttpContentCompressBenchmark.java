package io.rill.microbench.peers;

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

import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.StandardCompressionOptions;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

import io.rill.microbench.http.HttpContentCompressBenchmark;

/**
 * Netty 4.1's side of {@link HttpContentCompressBenchmark}: the same request and body through
 * Netty's {@link HttpContentCompressor} (br and zstd through the same brotli4j and zstd-jni jars)
 * with the same levels: gzip 6 (window 15, memLevel 8), brotli quality 4 with a 2^22 window, zstd
 * 3; the pooled allocator. Netty writes a compressed full response as a head and its content
 * pieces; all of them are read and released. One operation = one response.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class NettyHttpContentCompressBenchmark {

    @Param({"gzip", "br", "zstd"})
    public String coding;

    @Param({"2048", "65536"})
    public int size;

    private byte[] body;
    private EmbeddedChannel channel;

    @Setup
    public void setUp() {
        body = HttpContentCompressBenchmark.body(size);
        HttpContentCompressor compressor = switch (coding) {
            case "gzip" -> new HttpContentCompressor(0, StandardCompressionOptions.gzip(6, 15, 8));
            case "br" -> new HttpContentCompressor(0, StandardCompressionOptions.brotli(
                    new com.aayushatharva.brotli4j.encoder.Encoder.Parameters().setQuality(4).setWindow(22)));
            case "zstd" -> new HttpContentCompressor(0, StandardCompressionOptions.zstd(3, 1 << 16, 1 << 25));
            default -> throw new IllegalArgumentException(coding);
        };
        channel = new EmbeddedChannel(compressor);
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    @Benchmark
    public int compress() {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        request.headers().set(HttpHeaderNames.ACCEPT_ENCODING, coding);
        channel.writeInbound(request);
        ReferenceCountUtil.release(channel.readInbound());
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        channel.writeOutbound(response);
        int n = 0;
        for (Object o; (o = channel.readOutbound()) != null; ) {
            if (o instanceof ByteBufHolder h) {
                n += h.content().readableBytes();
            }
            ReferenceCountUtil.release(o);
        }
        return n;
    }
}
