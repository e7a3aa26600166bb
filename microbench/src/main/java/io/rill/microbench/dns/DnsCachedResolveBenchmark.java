package io.rill.microbench.dns;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
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

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.EventLoop;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.handler.codec.dns.DnsMessage;
import io.rill.handler.codec.dns.DnsMessageDecoder;
import io.rill.handler.codec.dns.DnsMessageEncoder;
import io.rill.handler.codec.dns.DnsRdata;
import io.rill.handler.codec.dns.DnsRecord;
import io.rill.handler.codec.dns.DnsRecordType;
import io.rill.resolver.dns.DnsNameResolver;
import io.rill.resolver.dns.ResolvedAddressTypes;
import io.rill.util.concurrent.Future;

/**
 * A cached {@code resolveAll} on the resolver's own event loop, the path every connect to a known
 * host takes: {@value #BATCH} resolves per task submitted to the loop, so the hand-off to the loop
 * is spread over them. Run with {@code -prof gc} to see the bytes allocated per resolve (the
 * completed future; the list is the cached one).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DnsCachedResolveBenchmark {

    static final int BATCH = 1000;

    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;
    private DnsNameResolver resolver;
    private DatagramSocket server;
    private Thread serverThread;

    @Setup
    public void setUp() throws Exception {
        server = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        serverThread = new Thread(() -> answerOnce(server), "dns-bench-server");
        serverThread.setDaemon(true);
        serverThread.start();
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        loop = (EventLoop) group.next();
        resolver = DnsNameResolver.builder(loop).resolvConf(null).hostsFile(null)
                .nameServers(List.of((InetSocketAddress) server.getLocalSocketAddress())).searchDomains(List.of())
                .resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY).build();
        List<InetAddress> first = resolver.resolveAll("bench.example").get(10, TimeUnit.SECONDS);
        if (first.isEmpty()) {
            throw new IllegalStateException("no answer to fill the cache");
        }
    }

    /**
     * Answers the one query that fills the cache, for a day: 192.0.2.1 for whatever name it asks.
     * Public for the same benchmark over Netty's resolver ({@code peers} profile).
     */
    public static void answerOnce(DatagramSocket server) {
        try {
            byte[] buf = new byte[512];
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            server.receive(p);
            ByteBuf in = Unpooled.wrappedBuffer(Arrays.copyOf(buf, p.getLength()));
            DnsMessage q = DnsMessageDecoder.decode(in);
            in.release();
            DnsMessage a = new DnsMessage(q.id(), DnsMessage.FLAG_QR | DnsMessage.FLAG_RD | DnsMessage.FLAG_RA,
                    q.questions(), List.of(new DnsRecord(q.questions().get(0).name(), DnsRecordType.A, 1, 86400,
                            new DnsRdata.Address(InetAddress.getByName("192.0.2.1")))), List.of(), List.of(), null);
            ByteBuf out = Unpooled.buffer();
            DnsMessageEncoder.encode(a, out);
            byte[] bytes = ByteBufUtil.getBytes(out);
            out.release();
            server.send(new DatagramPacket(bytes, bytes.length, p.getSocketAddress()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @TearDown
    public void tearDown() throws Exception {
        resolver.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        server.close();
        serverThread.join(1000);
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
