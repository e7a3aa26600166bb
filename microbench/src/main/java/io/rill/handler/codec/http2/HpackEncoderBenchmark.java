package io.rill.handler.codec.http2;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * Field blocks encoded per second: one connection's {@value HpackBenchmarkSets#REQUESTS}
 * requests (see {@link HpackBenchmarkSets}), built once as {@link Http2Headers} of
 * {@code AsciiString}s, encoded in order by a fresh encoder per invocation into one reused
 * buffer. One operation = one request's block.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HpackEncoderBenchmark {

    @Param({"small", "medium", "large"})
    public String set;

    private Http2Headers[] requests;
    private ByteBuf out;

    @Setup
    public void setUp() {
        List<String[]> fields = HpackBenchmarkSets.connection(set);
        requests = new Http2Headers[fields.size()];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = HpackBenchmarkSets.rillHeaders(fields.get(i));
        }
        out = ByteBufAllocator.DEFAULT.directBuffer(16384);
    }

    @TearDown
    public void tearDown() {
        out.release();
    }

    @Benchmark
    @OperationsPerInvocation(HpackBenchmarkSets.REQUESTS)
    public void encode(Blackhole bh) {
        HpackEncoder encoder = new HpackEncoder();
        for (Http2Headers request : requests) {
            out.clear();
            encoder.encode(request, out);
            bh.consume(out.writerIndex());
        }
    }
}
