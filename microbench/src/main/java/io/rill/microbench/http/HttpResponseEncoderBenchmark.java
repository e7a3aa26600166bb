package io.rill.microbench.http;

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
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpResponseEncoder;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.util.AsciiString;

/**
 * Responses encoded per second: the TechEmpower plaintext response, {@code Hello, World!} with
 * four header fields, built as {@code http-hello} builds it (unvalidated headers, cached values).
 * One operation = one response, built and encoded, its bytes released.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HttpResponseEncoderBenchmark {

    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    private static final AsciiString LENGTH = AsciiString.cached("13");
    private static final AsciiString SERVER = AsciiString.cached("Rill");
    private static final AsciiString DATE = AsciiString.cached("Mon, 23 Nov 2026 05:58:00 GMT");

    private EmbeddedChannel encoding;

    @Setup
    public void setUp() {
        encoding = new EmbeddedChannel(new HttpResponseEncoder());
    }

    @TearDown
    public void tearDown() {
        encoding.finishAndReleaseAll();
    }

    @Benchmark
    public int encodeResponse() {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(HELLO), new HttpHeaders(false), HttpHeaders.EMPTY);
        r.headers().add(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN).add(HttpHeaderNames.CONTENT_LENGTH, LENGTH)
                .add(HttpHeaderNames.SERVER, SERVER).add(HttpHeaderNames.DATE, DATE);
        encoding.writeOutbound(r);
        int bytes = 0;
        for (Object o; (o = encoding.readOutbound()) != null; ) {
            bytes += ((ByteBuf) o).readableBytes();
            ReferenceCountUtil.release(o);
        }
        return bytes;
    }
}
