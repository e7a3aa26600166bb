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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslProvider;

/**
 * Bulk TLS through {@code SslHandler} (JDK and OPENSSL providers), no socket: one record of {@code size}
 * plaintext bytes per operation. {@code wrap} encrypts it on the client; {@code wrapAndUnwrap}
 * also decrypts it on the server (records cannot be replayed, so unwrap alone is the
 * difference). Throughput in MiB/s is ops/s × size / 2^20.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SslHandlerBenchmark {

    @Param({"1024", "16384"})
    public int size;

    @Param({"TLSv1.3", "TLSv1.2"})
    public String protocol;

    /** OPENSSL needs tcnative on the class path (see {@link TlsPair}). */
    @Param({"JDK", "OPENSSL"})
    public SslProvider provider;

    private TlsPair pair;
    private ByteBuf payload;

    @Setup
    public void setUp() throws Exception {
        SslContext server = TlsPair.serverContext(protocol, provider);
        SslContext client = TlsPair.clientContext(protocol, provider);
        pair = new TlsPair(server, client);
        pair.exchange();
        if (!pair.handshaken()) {
            throw new IllegalStateException("no handshake");
        }
        payload = ByteBufAllocator.DEFAULT.heapBuffer(size).writeZero(size);
    }

    @TearDown
    public void tearDown() {
        payload.release();
        pair.close();
    }

    @Benchmark
    public int wrap() {
        pair.client.writeAndFlush(payload.retainedDuplicate());
        int records = 0;
        for (Object m; (m = pair.client.readOutbound()) != null; records++) {
            ((ByteBuf) m).release();
        }
        return records;
    }

    @Benchmark
    public long wrapAndUnwrap() {
        pair.client.writeAndFlush(payload.retainedDuplicate());
        TlsPair.move(pair.client, pair.server);
        return pair.serverReceived;
    }
}
