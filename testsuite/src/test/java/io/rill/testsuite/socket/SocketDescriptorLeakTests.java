package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rill.channel.Channel;
import io.rill.util.concurrent.Future;

/**
 * docs/security-cases.md, case R-02: connect/close cycles, failed connects included, leave no
 * descriptor behind. Linux only (counts {@code /proc/self/fd}).
 */
abstract class SocketDescriptorLeakTests extends AbstractSocketTest {

    /** Cycles of each kind: 5,000 + 5,000 failed = R-02's 10,000; about 3 s over NIO TCP here. */
    static final int CYCLES = 5_000;
    /** Descriptors other threads of this JVM (JIT, GC logs, class loading) may open meanwhile. */
    private static final int SLACK = 8;

    @Test
    void connectCloseCyclesAndFailedConnectsReturnTheDescriptorCountToItsBaseline() throws Exception {
        Path fds = Path.of("/proc/self/fd");
        Assumptions.assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd");
        Channel server = startServer(new EchoHandler());
        SocketAddress nobody = addressNobodyListensOn();
        // Warm up once, so lazily opened JDK resources (selector pipes, ...) count in the baseline.
        await(await(clientBootstrap().handler(new ByteCollector()).connect(server.localAddress())).close());
        long baseline = settledCount(fds, Long.MAX_VALUE);
        for (int i = 0; i < CYCLES; i++) {
            Channel client = await(clientBootstrap().handler(new ByteCollector()).connect(server.localAddress()));
            await(client.close());
            Future<Channel> refused = clientBootstrap().handler(new ByteCollector()).connect(nobody);
            awaitFailure(refused);
        }
        long after = settledCount(fds, baseline + SLACK);
        assertTrue(after <= baseline + SLACK, "descriptors: " + baseline + " before, " + after + " after "
                + CYCLES + " connect/close cycles and " + CYCLES + " failed connects");
    }

    private SocketAddress addressNobodyListensOn() throws IOException {
        if (!transport.isInet()) {
            return transport.bindAddress().get();
        }
        try (ServerSocketChannel s = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            return s.getLocalAddress();
        }
    }

    /**
     * The descriptor count once it stops falling (or reaches {@code target}): the JDK closes the
     * descriptor of a selector-registered channel at the loop's next select, slightly after
     * close() completed. Waits on the loop's timer, 20 ms at a time, for at most ~2 s.
     */
    private long settledCount(Path fds, long target) throws Exception {
        long count = count(fds);
        for (int i = 0; i < 100 && count > target; i++) {
            group.next().schedule(() -> null, 20, TimeUnit.MILLISECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            count = count(fds);
        }
        if (target == Long.MAX_VALUE) {
            group.next().schedule(() -> null, 50, TimeUnit.MILLISECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            count = Math.min(count, count(fds));
        }
        return count;
    }

    private static long count(Path fds) throws IOException {
        try (Stream<Path> list = Files.list(fds)) {
            return list.count();
        }
    }
}
