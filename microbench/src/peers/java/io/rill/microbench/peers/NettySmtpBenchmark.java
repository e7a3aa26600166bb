package io.rill.microbench.peers;

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

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.smtp.SmtpRequest;
import io.netty.handler.codec.smtp.SmtpRequestEncoder;
import io.netty.handler.codec.smtp.SmtpRequests;
import io.netty.handler.codec.smtp.SmtpResponse;
import io.netty.handler.codec.smtp.SmtpResponseDecoder;
import io.netty.util.AsciiString;
import io.rill.microbench.smtp.SmtpCodecBenchmark;

/** {@link SmtpCodecBenchmark} over Netty 4.1's SMTP codec: the same replies and requests. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NettySmtpBenchmark {

    private EmbeddedChannel decoder;
    private EmbeddedChannel encoder;
    private ByteBuf replies;
    private SmtpRequest[] requests;

    @Setup
    public void setUp() {
        decoder = new EmbeddedChannel(new SmtpResponseDecoder(4096));
        encoder = new EmbeddedChannel(new SmtpRequestEncoder());
        byte[] bytes = SmtpCodecBenchmark.REPLIES.getBytes(StandardCharsets.US_ASCII);
        replies = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        requests = new SmtpRequest[] {SmtpRequests.ehlo("client.example.org"),
            SmtpRequests.mail(AsciiString.of("alice@example.org")), SmtpRequests.rcpt(AsciiString.of("bob@example.net")),
            SmtpRequests.data()};
    }

    @TearDown
    public void tearDown() {
        replies.release();
        decoder.finishAndReleaseAll();
        encoder.finishAndReleaseAll();
    }

    @Benchmark
    public int decodeReplies() {
        decoder.writeInbound(replies.retainedDuplicate());
        int n = 0;
        for (Object r; (r = decoder.readInbound()) != null; ) {
            n += ((SmtpResponse) r).code();
        }
        return n;
    }

    @Benchmark
    public int encodeRequests() {
        for (SmtpRequest r : requests) {
            encoder.write(r);
        }
        encoder.flush();
        int n = 0;
        for (ByteBuf b; (b = encoder.readOutbound()) != null; ) {
            n += b.readableBytes();
            b.release();
        }
        return n;
    }
}
