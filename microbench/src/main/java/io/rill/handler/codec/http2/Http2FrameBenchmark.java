package io.rill.handler.codec.http2;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * The frame layer alone, HPACK left out (its own benchmarks measure it): {@code write} puts one
 * hello-world response (HEADERS + a 13-byte DATA) into a reused buffer as the codec does per
 * flush; {@code read} parses a burst of {@value #FRAMES} frames (HEADERS, DATA, WINDOW_UPDATE)
 * as they come off the wire. One operation = one frame written or read.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Http2FrameBenchmark {

    static final int FRAMES = 300;
    private static final byte[] HELLO = "Hello, World!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] BLOCK = new byte[40];

    private final Http2FrameWriter writer = new Http2FrameWriter((headers, out) -> out.writeBytes(BLOCK));
    private final Http2Headers response = new Http2Headers().status("200");
    private ByteBuf out;
    private ByteBuf burst;
    private Http2FrameReader reader;
    private Counting listener;

    @Setup
    public void setUp() throws Exception {
        out = ByteBufAllocator.DEFAULT.directBuffer(4096);
        burst = ByteBufAllocator.DEFAULT.directBuffer(64 * FRAMES);
        for (int i = 0; i < FRAMES / 3; i++) {
            int id = 2 * i + 1;
            writer.writeHeaders(burst, id, response, false);
            writer.writeDataHeader(burst, id, HELLO.length, true);
            burst.writeBytes(HELLO);
            writer.writeWindowUpdate(burst, 0, 1024);
        }
        reader = new Http2FrameReader((streamId, block, headers) -> block.skipBytes(block.readableBytes()),
                ByteBufAllocator.DEFAULT, 1 << 20);
    }

    @TearDown
    public void tearDown() {
        out.release();
        burst.release();
    }

    @Benchmark
    @OperationsPerInvocation(2)
    public int write() throws Exception {
        out.clear();
        writer.writeHeaders(out, 1, response, false);
        writer.writeDataHeader(out, 1, HELLO.length, true);
        out.writeBytes(HELLO);
        return out.writerIndex();
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public void read(Blackhole bh) throws Exception {
        if (listener == null) {
            listener = new Counting(bh);
        }
        burst.readerIndex(0);
        while (reader.readFrame(burst, listener)) {
            // counted by the listener
        }
    }

    /** Consumes every frame into the black hole. */
    static final class Counting implements Http2FrameListener {
        private final Blackhole bh;

        Counting(Blackhole bh) {
            this.bh = bh;
        }

        @Override
        public void onData(int streamId, ByteBuf data, int flowControlled, boolean endStream) {
            bh.consume(data.readableBytes());
        }

        @Override
        public void onHeaders(int streamId, Http2Headers headers, boolean endStream) {
            bh.consume(headers);
        }

        @Override
        public void onPriority(int streamId) {
        }

        @Override
        public void onRstStream(int streamId, Http2Error error) {
        }

        @Override
        public void onSettings(Http2Settings settings) {
        }

        @Override
        public void onSettingsAck() {
        }

        @Override
        public void onPing(long data, boolean ack) {
        }

        @Override
        public void onGoAway(int lastStreamId, Http2Error error, ByteBuf debugData) {
        }

        @Override
        public void onWindowUpdate(int streamId, int increment) {
            bh.consume(increment);
        }

        @Override
        public void onUnknownFrame(int type, int streamId, int length) {
        }
    }
}
