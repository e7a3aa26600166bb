package io.rill.microbench.dns;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
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
import io.rill.buffer.Unpooled;
import io.rill.handler.codec.dns.DnsMessage;
import io.rill.handler.codec.dns.DnsMessageDecoder;
import io.rill.handler.codec.dns.DnsMessageEncoder;
import io.rill.handler.codec.dns.DnsQuestion;
import io.rill.handler.codec.dns.DnsRdata;
import io.rill.handler.codec.dns.DnsRecord;
import io.rill.handler.codec.dns.DnsRecordType;
import io.rill.handler.codec.dns.Edns;

/**
 * DNS messages decoded and encoded per microsecond: a typical recursive answer (a CNAME and four
 * A records, EDNS0), which exercises name compression both ways, and the one-question query a
 * resolver sends.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DnsCodecBenchmark {

    private DnsMessage answer;
    private DnsMessage query;
    private ByteBuf answerWire;
    private ByteBuf out;

    @Setup
    public void setUp() throws Exception {
        query = DnsMessage.query(0x1234, DnsQuestion.in("www.example.com", DnsRecordType.A), 1232);
        answer = typicalAnswer();
        answerWire = Unpooled.directBuffer(512);
        DnsMessageEncoder.encode(answer, answerWire);
        out = Unpooled.directBuffer(512);
    }

    /**
     * The answer both codecs are measured on: www.example.com, a CNAME to edge.cdn.example.net and
     * its four A records (192.0.2.1-4), EDNS0 at 1232 bytes. Public for the same benchmark over
     * Netty's codec ({@code peers} profile), which decodes the bytes Rill's encoder makes of it.
     */
    public static DnsMessage typicalAnswer() throws java.net.UnknownHostException {
        DnsMessage query = DnsMessage.query(0x1234, DnsQuestion.in("www.example.com", DnsRecordType.A), 1232);
        List<DnsRecord> records = new ArrayList<>();
        records.add(new DnsRecord("www.example.com.", DnsRecordType.CNAME, 1, 300, new DnsRdata.Name("edge.cdn.example.net.")));
        for (int i = 1; i <= 4; i++) {
            records.add(new DnsRecord("edge.cdn.example.net.", DnsRecordType.A, 1, 60,
                    new DnsRdata.Address(InetAddress.getByName("192.0.2." + i))));
        }
        return new DnsMessage(0x1234, DnsMessage.FLAG_QR | DnsMessage.FLAG_RD | DnsMessage.FLAG_RA,
                query.questions(), records, List.of(), List.of(), Edns.of(1232));
    }

    @TearDown
    public void tearDown() {
        answerWire.release();
        out.release();
    }

    @Benchmark
    public DnsMessage decodeAnswer() {
        return DnsMessageDecoder.decode(answerWire);
    }

    @Benchmark
    public int encodeAnswer() {
        out.clear();
        DnsMessageEncoder.encode(answer, out);
        return out.writerIndex();
    }

    @Benchmark
    public int encodeQuery() {
        out.clear();
        DnsMessageEncoder.encode(query, out);
        return out.writerIndex();
    }
}
