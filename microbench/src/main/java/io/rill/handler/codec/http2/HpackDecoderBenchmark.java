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
 * Field blocks decoded per second: one connection's {@value HpackBenchmarkSets#REQUESTS}
 * requests (see {@link HpackBenchmarkSets}), encoded once by Rill's encoder (Huffman, default
 * sensitivity), decoded in order by a fresh decoder per invocation so every invocation replays
 * the same table states. One operation = one request's block into a new {@link Http2Headers}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HpackDecoderBenchmark {

    @Param({"small", "medium", "large"})
    public String set;

    private ByteBuf[] blocks;

    @Setup
    public void setUp() {
        List<String[]> requests = HpackBenchmarkSets.connection(set);
        HpackEncoder encoder = new HpackEncoder();
        blocks = new ByteBuf[requests.size()];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = ByteBufAllocator.DEFAULT.directBuffer(1024);
            encoder.encode(HpackBenchmarkSets.rillHeaders(requests.get(i)), blocks[i]);
        }
    }

    @TearDown
    public void tearDown() {
        for (ByteBuf block : blocks) {
            block.release();
        }
    }

    @Benchmark
    @OperationsPerInvocation(HpackBenchmarkSets.REQUESTS)
    public void decode(Blackhole bh) throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(1 << 16, 4096);
        for (ByteBuf block : blocks) {
            block.readerIndex(0);
            Http2Headers headers = new Http2Headers();
            decoder.decode(1, block, headers);
            bh.consume(headers);
        }
    }
}
