package io.rill.microbench.http;

import java.nio.charset.StandardCharsets;
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

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContentCompressor;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;

/**
 * One request with {@code Accept-Encoding: <coding>} and its full response of {@code size} bytes
 * of JSON-like text through {@link HttpContentCompressor} at its default levels (gzip 6, brotli
 * quality 4 with a 4 MiB window, zstd 3): negotiation, a fresh encoder per response, the
 * compressed body. The microbench {@code peers} profile adds Netty 4.1's side,
 * {@code NettyHttpContentCompressBenchmark}, with the same levels. One operation = one response;
 * {@link #compress} returns the compressed length (the run prints it in its log only as a check).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HttpContentCompressBenchmark {

    @Param({"gzip", "br", "zstd"})
    public String coding;

    @Param({"2048", "65536"})
    public int size;

    private byte[] body;
    private EmbeddedChannel channel;

    /** The body both sides compress: the same bytes as the Netty benchmark's. */
    public static byte[] body(int size) {
        StringBuilder sb = new StringBuilder(size + 80);
        for (int i = 0; sb.length() < size; i++) {
            sb.append("{\"id\":").append(i).append(",\"name\":\"item ").append(i)
                    .append("\",\"tags\":[\"a\",\"b\"],\"ok\":").append(i % 3 == 0).append("}\n");
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    @Setup
    public void setUp() {
        body = body(size);
        channel = new EmbeddedChannel(HttpContentCompressor.builder().codings(coding).build());
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
        FullHttpResponse out = channel.readOutbound();
        int n = out.content().readableBytes();
        out.release();
        return n;
    }
}
