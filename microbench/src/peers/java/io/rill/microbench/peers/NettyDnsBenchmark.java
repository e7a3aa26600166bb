package io.rill.microbench.peers;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.AddressedEnvelope;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.AbstractDnsOptPseudoRrRecord;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryEncoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuery;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import io.netty.util.concurrent.Future;
import io.rill.handler.codec.dns.DnsMessageEncoder;
import io.rill.microbench.dns.DnsCachedResolveBenchmark;
import io.rill.microbench.dns.DnsCodecBenchmark;

/**
 * {@link DnsCodecBenchmark} and {@link DnsCachedResolveBenchmark} over Netty 4.1's DNS codec and
 * resolver, for a side-by-side run:
 * {@code java -jar microbench/target/benchmarks.jar 'Dns(Codec|CachedResolve)Benchmark|NettyDnsBenchmark' -prof gc}.
 *
 * <p>Decoding reads the very bytes Rill's encoder made of {@link DnsCodecBenchmark#typicalAnswer()}
 * (names compressed), and the response is released as a Netty user must. Netty's decoder leaves
 * record data raw (its resolver turns A records into addresses later), where Rill's gives them as
 * addresses. Netty encodes names uncompressed, so its answer is larger on the wire. The cached
 * resolve runs {@value #BATCH} {@code resolveAll} calls per task on the resolver's loop, the
 * cache filled by one real query to a local server, the hosts file out of the way. The codec
 * benchmarks count operations per microsecond and the resolve nanoseconds per call, as Rill's do.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NettyDnsBenchmark {

    static final int BATCH = 1000;
    private static final InetSocketAddress PEER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 53);

    /** Netty's decoder with its protected entry point opened to the benchmark; it uses no context. */
    private static final class ResponseDecoder extends DatagramDnsResponseDecoder {
        DnsResponse decode(DatagramPacket packet) throws Exception {
            return decodeResponse(null, packet);
        }
    }

    /** Netty's encoders writing into the benchmark's buffer instead of a context's allocator. */
    private static final class ResponseEncoder extends DatagramDnsResponseEncoder {
        final ByteBuf out = Unpooled.directBuffer(512);

        @Override
        protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, AddressedEnvelope<DnsResponse, InetSocketAddress> msg) {
            return out.clear().retain();
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        int encode(DatagramDnsResponse response, List<Object> sink) throws Exception {
            encode(null, (AddressedEnvelope) response, sink);
            return release(sink);
        }
    }

    private static final class QueryEncoder extends DatagramDnsQueryEncoder {
        final ByteBuf out = Unpooled.directBuffer(512);

        @Override
        protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, AddressedEnvelope<DnsQuery, InetSocketAddress> msg) {
            return out.clear().retain();
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        int encode(DatagramDnsQuery query, List<Object> sink) throws Exception {
            encode(null, (AddressedEnvelope) query, sink);
            return release(sink);
        }
    }

    private static int release(List<Object> sink) {
        DatagramPacket packet = (DatagramPacket) sink.get(0);
        int bytes = packet.content().readableBytes();
        packet.release();
        sink.clear();
        return bytes;
    }

    private final ResponseDecoder decoder = new ResponseDecoder();
    private final ResponseEncoder responseEncoder = new ResponseEncoder();
    private final QueryEncoder queryEncoder = new QueryEncoder();
    private final List<Object> sink = new ArrayList<>(1);
    private ByteBuf answerWire;
    private DatagramDnsResponse answer;
    private DatagramDnsQuery query;

    private NioEventLoopGroup group;
    private EventLoop loop;
    private DnsNameResolver resolver;
    private DatagramSocket server;
    private Thread serverThread;

    @Setup
    public void setUp() throws Exception {
        io.rill.buffer.ByteBuf rillWire = io.rill.buffer.Unpooled.buffer(512);
        DnsMessageEncoder.encode(DnsCodecBenchmark.typicalAnswer(), rillWire);
        byte[] bytes = new byte[rillWire.readableBytes()];
        rillWire.readBytes(bytes);
        rillWire.release();
        answerWire = Unpooled.directBuffer(bytes.length).writeBytes(bytes);

        answer = new DatagramDnsResponse(PEER, PEER, 0x1234);
        answer.setRecursionDesired(true).setRecursionAvailable(true);
        answer.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion("www.example.com.", DnsRecordType.A));
        answer.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord("www.example.com.", DnsRecordType.CNAME, 300,
                Unpooled.wrappedBuffer(new byte[] {4, 'e', 'd', 'g', 'e', 3, 'c', 'd', 'n', 7, 'e', 'x', 'a', 'm', 'p', 'l',
                        'e', 3, 'n', 'e', 't', 0})));
        for (int i = 1; i <= 4; i++) {
            answer.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord("edge.cdn.example.net.", DnsRecordType.A, 60,
                    Unpooled.wrappedBuffer(new byte[] {(byte) 192, 0, 2, (byte) i})));
        }
        answer.addRecord(DnsSection.ADDITIONAL, new AbstractDnsOptPseudoRrRecord(1232, 0, 0) { });
        query = new DatagramDnsQuery(null, PEER, 0x1234);
        query.setRecursionDesired(true);
        query.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion("www.example.com.", DnsRecordType.A));
        query.addRecord(DnsSection.ADDITIONAL, new AbstractDnsOptPseudoRrRecord(1232, 0, 0) { });

        server = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        serverThread = new Thread(() -> DnsCachedResolveBenchmark.answerOnce(server), "netty-dns-bench-server");
        serverThread.setDaemon(true);
        serverThread.start();
        group = new NioEventLoopGroup(1);
        loop = group.next();
        resolver = new DnsNameResolverBuilder(loop).channelType(NioDatagramChannel.class)
                .nameServerProvider(new SingletonDnsServerAddressStreamProvider((InetSocketAddress) server.getLocalSocketAddress()))
                .resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY).searchDomains(Collections.emptyList())
                .hostsFileEntriesResolver((host, types) -> null).build();
        List<InetAddress> first = resolver.resolveAll("bench.example").get(10, TimeUnit.SECONDS);
        if (first.isEmpty()) {
            throw new IllegalStateException("no answer to fill the cache");
        }
    }

    @TearDown
    public void tearDown() throws Exception {
        answerWire.release();
        answer.release();
        query.release();
        responseEncoder.out.release();
        queryEncoder.out.release();
        resolver.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        server.close();
        serverThread.join(1000);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int decodeAnswer() throws Exception {
        DnsResponse response = decoder.decode(new DatagramPacket(answerWire.retainedDuplicate(), PEER, PEER));
        int n = response.count(DnsSection.ANSWER);
        response.release();
        return n;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int encodeAnswer() throws Exception {
        return responseEncoder.encode(answer, sink);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int encodeQuery() throws Exception {
        return queryEncoder.encode(query, sink);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int cachedResolveAll() throws Exception {
        return loop.submit(() -> {
            int sum = 0;
            for (int i = 0; i < BATCH; i++) {
                Future<List<InetAddress>> f = resolver.resolveAll("bench.example");
                sum += f.getNow().size();
            }
            return sum;
        }).get();
    }
}
