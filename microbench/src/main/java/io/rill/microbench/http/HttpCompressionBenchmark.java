package io.rill.microbench.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

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
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpContentCompressor;
import io.rill.handler.codec.http.HttpContentDecompressor;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;

/**
 * Whole bodies of {@code size} bytes of text compressed by {@link HttpContentCompressor} (each
 * response sets up and ends its own deflater, as on a server) and gzip bodies decoded by
 * {@link HttpContentDecompressor}. One operation = one body.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HttpCompressionBenchmark {

    @Param({"2048", "65536"})
    public int size;

    private byte[] text;
    private byte[] gzipped;
    private EmbeddedChannel compressing;
    private EmbeddedChannel decompressing;

    @Setup
    public void setUp() throws IOException {
        StringBuilder sb = new StringBuilder(size + 64);
        for (int i = 0; sb.length() < size; i++) {
            sb.append("{\"id\":").append(i).append(",\"name\":\"item ").append(i).append("\",\"ok\":true}\n");
        }
        text = sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text);
        }
        gzipped = out.toByteArray();
        compressing = new EmbeddedChannel(new HttpContentCompressor());
        decompressing = new EmbeddedChannel(new HttpContentDecompressor());
    }

    @TearDown
    public void tearDown() {
        compressing.finishAndReleaseAll();
        decompressing.finishAndReleaseAll();
    }

    @Benchmark
    public int compress() {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        request.headers().set(HttpHeaderNames.ACCEPT_ENCODING, "gzip");
        compressing.writeInbound(request);
        ReferenceCountUtil.release(compressing.readInbound());
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(text));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        compressing.writeOutbound(response);
        FullHttpResponse out = compressing.readOutbound();
        int n = out.content().readableBytes();
        out.release();
        return n;
    }

    @Benchmark
    public int decompress() {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.wrappedBuffer(gzipped));
        request.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        decompressing.writeInbound(request);
        int n = 0;
        for (Object o; (o = decompressing.readInbound()) != null; ) {
            if (o instanceof HttpContent c) {
                n += ((ByteBuf) c.content()).readableBytes();
            }
            ReferenceCountUtil.release(o);
        }
        return n;
    }
}
