package io.rill.microbench.smtp;

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
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.smtp.SmtpRequest;
import io.rill.handler.codec.smtp.SmtpRequestEncoder;
import io.rill.handler.codec.smtp.SmtpResponseDecoder;

/**
 * One SMTP transaction's worth of codec work per operation, on an embedded channel: decoding the
 * replies a client reads (greeting, a six-line EHLO reply, MAIL, RCPT, DATA's 354) and encoding the
 * requests it sends (EHLO, MAIL, RCPT, DATA). {@code NettySmtpBenchmark} ({@code peers}) does the
 * same with Netty's codec:
 * {@code java -jar microbench/target/benchmarks.jar 'SmtpCodecBenchmark|NettySmtpBenchmark' -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SmtpCodecBenchmark {

    /** The replies of one transaction; public for the Netty benchmark. */
    public static final String REPLIES = "220 mail.example.net ESMTP ready\r\n250-mail.example.net greets you\r\n"
            + "250-PIPELINING\r\n250-SIZE 52428800\r\n250-8BITMIME\r\n250-ENHANCEDSTATUSCODES\r\n250 SMTPUTF8\r\n"
            + "250 2.1.0 Ok\r\n250 2.1.5 Ok\r\n354 End data with <CR><LF>.<CR><LF>\r\n";

    private EmbeddedChannel decoder;
    private EmbeddedChannel encoder;
    private ByteBuf replies;
    private SmtpRequest[] requests;

    @Setup
    public void setUp() {
        decoder = new EmbeddedChannel(new SmtpResponseDecoder());
        encoder = new EmbeddedChannel(new SmtpRequestEncoder());
        byte[] bytes = REPLIES.getBytes(StandardCharsets.US_ASCII);
        replies = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        requests = new SmtpRequest[] {SmtpRequest.ehlo("client.example.org"), SmtpRequest.mail("alice@example.org"),
            SmtpRequest.rcpt("bob@example.net"), SmtpRequest.data()};
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
        while (decoder.readInbound() != null) {
            n++;
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
