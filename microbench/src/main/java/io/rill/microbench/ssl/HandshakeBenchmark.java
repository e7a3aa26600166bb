package io.rill.microbench.ssl;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.buffer.ByteBufAllocator;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslProvider;
import io.rill.handler.ssl.SslContextBuilder;

/**
 * Full TLS handshakes per second through two {@code SslHandler}s (JDK and OPENSSL providers, EC P-256
 * certificate), no socket. Client engines are made without a peer host, which is what the JDK
 * keys resumption on, so every handshake is a full one (and host name checks are off here).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HandshakeBenchmark {

    @Param({"TLSv1.3", "TLSv1.2"})
    public String protocol;

    /** OPENSSL needs tcnative on the class path (see {@link TlsPair}). */
    @Param({"JDK", "OPENSSL"})
    public SslProvider provider;

    private SslContext server;
    private SslContext client;

    @Setup
    public void setUp() throws Exception {
        server = TlsPair.serverContext(protocol, provider);
        client = SslContextBuilder.forClient().trustManager(TlsPair.CERT.certificate()).protocols(protocol)
                .sslProvider(provider).endpointIdentificationAlgorithm(null).build();
    }

    @Benchmark
    public boolean handshake() {
        long started = System.currentTimeMillis() - 1;
        TlsPair pair = new TlsPair(server.newHandler(ByteBufAllocator.DEFAULT),
                client.newHandler(ByteBufAllocator.DEFAULT));
        try {
            pair.exchange();
            if (!pair.handshaken()) {
                throw new IllegalStateException("handshake failed: " + pair.clientSsl.handshakeFuture().cause());
            }
            if (pair.clientSsl.engine().getSession().getCreationTime() < started) {
                throw new IllegalStateException("a session was resumed");
            }
            return true;
        } finally {
            pair.close();
        }
    }
}
