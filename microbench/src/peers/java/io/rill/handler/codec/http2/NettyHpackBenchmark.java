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

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.util.AsciiString;

/**
 * Netty 4.1's HPACK through its public {@code DefaultHttp2HeadersDecoder} and
 * {@code DefaultHttp2HeadersEncoder}, on the same connections as {@link HpackDecoderBenchmark}
 * and {@link HpackEncoderBenchmark}: the decoder reads the very blocks Rill's encoder wrote, with
 * names and values validated as Rill's decoder validates them. Netty's encoder only tries
 * Huffman on strings of 512 octets or more by default ({@code huffman=default}); with
 * {@code huffman=always} it tries it on every string, as Rill's does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class NettyHpackBenchmark {

    @Param({"small", "medium", "large"})
    public String set;

    @Param({"default", "always"})
    public String huffman;

    private ByteBuf[] blocks;
    private DefaultHttp2Headers[] requests;
    private ByteBuf out;

    @Setup
    public void setUp() {
        List<String[]> fields = HpackBenchmarkSets.connection(set);
        HpackEncoder rill = new HpackEncoder();
        blocks = new ByteBuf[fields.size()];
        requests = new DefaultHttp2Headers[fields.size()];
        io.rill.buffer.ByteBuf scratch = io.rill.buffer.Unpooled.buffer();
        for (int i = 0; i < blocks.length; i++) {
            scratch.clear();
            rill.encode(HpackBenchmarkSets.rillHeaders(fields.get(i)), scratch);
            byte[] block = new byte[scratch.readableBytes()];
            scratch.readBytes(block);
            blocks[i] = PooledByteBufAllocator.DEFAULT.directBuffer(block.length).writeBytes(block);
            requests[i] = new DefaultHttp2Headers();
            String[] f = fields.get(i);
            for (int j = 0; j < f.length; j += 2) {
                requests[i].add(AsciiString.cached(f[j]), AsciiString.cached(f[j + 1]));
            }
        }
        scratch.release();
        out = PooledByteBufAllocator.DEFAULT.directBuffer(16384);
    }

    @TearDown
    public void tearDown() {
        for (ByteBuf block : blocks) {
            block.release();
        }
        out.release();
    }

    @Benchmark
    @OperationsPerInvocation(HpackBenchmarkSets.REQUESTS)
    public void decode(Blackhole bh) throws Exception {
        DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(true, true, 1 << 16);
        for (ByteBuf block : blocks) {
            block.readerIndex(0);
            bh.consume(decoder.decodeHeaders(1, block));
        }
    }

    @Benchmark
    @OperationsPerInvocation(HpackBenchmarkSets.REQUESTS)
    public void encode(Blackhole bh) throws Exception {
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(
                Http2HeadersEncoder.NEVER_SENSITIVE, true, 16, huffman.equals("always") ? 0 : 512);
        for (DefaultHttp2Headers request : requests) {
            out.clear();
            encoder.encodeHeaders(1, request, out);
            bh.consume(out.writerIndex());
        }
    }
}
