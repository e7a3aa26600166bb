package io.rill.microbench.http;

import java.nio.charset.StandardCharsets;
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

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpRequestDecoder;

/**
 * Requests decoded per second: a GET with the headers wrk sends in the TechEmpower plaintext test,
 * and a browser-like one with a dozen fields, {@value #PIPELINE} of them per read (pipelined).
 * One operation = one request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HttpRequestDecoderBenchmark {

    static final int PIPELINE = 16;

    private static final String WRK = "GET /plaintext HTTP/1.1\r\nHost: localhost:8080\r\n"
            + "Accept: text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7\r\n"
            + "Connection: keep-alive\r\n\r\n";
    private static final String BROWSER = "GET /app/index.html?lang=en&ref=home HTTP/1.1\r\nHost: www.example.com\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0\r\n"
            + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8\r\n"
            + "Accept-Language: en-US,en;q=0.5\r\nAccept-Encoding: gzip, deflate, br\r\nReferer: https://www.example.com/\r\n"
            + "Cookie: sid=31d4d96e407aad42; theme=dark\r\nUpgrade-Insecure-Requests: 1\r\nSec-Fetch-Dest: document\r\n"
            + "Sec-Fetch-Mode: navigate\r\nConnection: keep-alive\r\n\r\n";

    @Param({"wrk", "browser"})
    public String request;

    private EmbeddedChannel decoding;
    private ChannelPipeline decodePipeline;
    private ByteBuf wire;

    @Setup
    public void setUp() {
        decoding = new EmbeddedChannel(new HttpRequestDecoder(), new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ReferenceCountUtil.release(msg);
            }
        });
        decodePipeline = decoding.pipeline();
        byte[] one = (request.equals("wrk") ? WRK : BROWSER).getBytes(StandardCharsets.US_ASCII);
        wire = ByteBufAllocator.DEFAULT.directBuffer(one.length * PIPELINE);
        for (int i = 0; i < PIPELINE; i++) {
            wire.writeBytes(one);
        }
    }

    @TearDown
    public void tearDown() {
        wire.release();
        decoding.finishAndReleaseAll();
    }

    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public void decodePipelinedRequests() {
        decodePipeline.fireChannelRead(wire.retainedSlice());
        decodePipeline.fireChannelReadComplete();
    }
}
