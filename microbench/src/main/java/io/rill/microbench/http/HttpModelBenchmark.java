package io.rill.microbench.http;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

import io.rill.handler.codec.http.DateFormatter;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.util.AsciiString;

/**
 * The message model's hot calls: {@link HttpMethod#valueOf} over a mix of method names (known
 * ones, case differences, an extension method), {@link HttpHeaders} add/get/remove on a set the
 * size of a browser request, and {@link DateFormatter} format and parse. Times per call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@org.openjdk.jmh.annotations.Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HttpModelBenchmark {

    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "PROPFIND"};
    private static final AsciiString[] NAMES = {HttpHeaderNames.HOST, HttpHeaderNames.USER_AGENT, HttpHeaderNames.ACCEPT,
        HttpHeaderNames.ACCEPT_LANGUAGE, HttpHeaderNames.ACCEPT_ENCODING, HttpHeaderNames.REFERER, HttpHeaderNames.COOKIE,
        HttpHeaderNames.CONNECTION, AsciiString.cached("sec-fetch-dest"), AsciiString.cached("x-request-id")};
    private static final String[] LOOKUPS = {"Host", "cookie", "X-Request-Id", "content-length"};
    private static final String DATE = "Sun, 06 Nov 1994 08:49:37 GMT";

    private final long now = System.currentTimeMillis();

    @Benchmark
    @OperationsPerInvocation(8)
    public void methodValueOf(Blackhole bh) {
        for (String m : METHODS) {
            bh.consume(HttpMethod.valueOf(m));
        }
    }

    /** Builds a 10-field set, looks up 4 names (one absent), removes 2: one operation. */
    @Benchmark
    public HttpHeaders headersAddGetRemove(Blackhole bh) {
        HttpHeaders h = new HttpHeaders();
        for (AsciiString name : NAMES) {
            h.add(name, "value-of-a-typical-length");
        }
        for (String name : LOOKUPS) {
            bh.consume(h.get(name));
        }
        h.remove(HttpHeaderNames.COOKIE);
        h.remove("x-request-id");
        return h;
    }

    @Benchmark
    public String dateFormat() {
        return DateFormatter.format(now);
    }

    @Benchmark
    public Long dateParse() {
        return DateFormatter.parse(DATE);
    }
}
