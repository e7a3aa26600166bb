package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A server that runs out of descriptors keeps serving (issue 20). The server is a fresh JVM
 * ({@link AcceptExhaustionScenario}) started under {@code prlimit --nofile}, so nothing was loaded
 * in advance by other tests: the first time it runs out is the first time its error paths run.
 * The test opens more connections than the server may hold, waits for the one warning of the
 * episode, releases them all, and then wants an answer within two seconds on a connection that
 * was open all along and on a new one. Skipped where there are no descriptors or no {@code prlimit}.
 */
abstract class SocketAcceptExhaustionTests extends AbstractSocketTest {

    /** The server JVM's descriptor limit; the JVM itself holds a few dozen. */
    private static final int LIMIT = 256;
    /** Connections opened at once: enough to exhaust the limit with room to spare. */
    private static final int FLOOD = LIMIT + 100;
    private static final long ANSWER_MILLIS = 2000;
    /** Part of the one warning the server logs per episode. */
    private static final String WARNING = "ulimit -n";

    /** The {@link SocketTestSuite} subclass whose transport the server uses. */
    protected abstract Class<? extends SocketTestSuite> suiteClass();

    @Test
    void freshServerOutOfDescriptorsRecoversAndAnswersWithinTwoSeconds() throws Exception {
        assumeTrue(transport.isInet(), transport + ": the peer here is a JDK TCP socket");
        assumeTrue(Files.isExecutable(ChildProcess.PRLIMIT), "needs util-linux prlimit");
        try (ChildProcess server = ChildProcess.start(LIMIT, AcceptExhaustionScenario.class, suiteClass().getName())) {
            String listening = server.awaitLine("LISTENING ", TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            assertTrue(listening != null, "the server did not start:\n" + server.output());
            InetSocketAddress address = new InetSocketAddress("127.0.0.1",
                    Integer.parseInt(listening.substring(listening.indexOf("LISTENING ") + 10).trim()));
            try (Socket keeper = new Socket()) {
                keeper.connect(address, (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
                assertEchoed(keeper, "before", TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS), server);

                List<Socket> flood = new ArrayList<>();
                String warning;
                try {
                    for (int i = 0; i < FLOOD; i++) {
                        try {
                            flood.add(new Socket(address.getAddress(), address.getPort()));
                        } catch (IOException e) {
                            throw new AssertionError("connection " + i + " failed:\n" + server.output(), e);
                        }
                    }
                    warning = server.awaitLine(WARNING, TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
                } finally {
                    for (Socket s : flood) {
                        s.close();
                    }
                }
                long released = System.nanoTime();

                assertEchoed(keeper, "after", ANSWER_MILLIS, server);
                try (Socket fresh = new Socket()) {
                    try {
                        fresh.connect(address, (int) millisLeft(released, server));
                    } catch (IOException e) {
                        throw new AssertionError("a new connection failed:\n" + server.output(), e);
                    }
                    assertEchoed(fresh, "fresh", millisLeft(released, server), server);
                }
                assertTrue(warning != null, "no warning naming '" + WARNING + "':\n" + server.output());
                assertEquals(1, server.count(WARNING), "one warning per episode:\n" + server.output());
                assertFalse(server.output().contains("Exception in thread"), server.output());
            }
        }
    }

    private static long millisLeft(long released, ChildProcess server) {
        long left = ANSWER_MILLIS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
        assertTrue(left > 0, "no answer within " + ANSWER_MILLIS + " ms of the release:\n" + server.output());
        return left;
    }

    /** Sends {@code text} and wants it back within {@code millis}. */
    private static void assertEchoed(Socket socket, String text, long millis, ChildProcess server) throws IOException {
        byte[] sent = text.getBytes(StandardCharsets.US_ASCII);
        socket.getOutputStream().write(sent);
        socket.setSoTimeout((int) Math.max(1, millis));
        byte[] got = new byte[sent.length];
        InputStream in = socket.getInputStream();
        try {
            for (int n = 0; n < got.length; ) {
                int r = in.read(got, n, got.length - n);
                assertTrue(r > 0, "the server closed the connection:\n" + server.output());
                n += r;
            }
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError("no echo of '" + text + "' within " + millis + " ms:\n" + server.output(), e);
        }
        assertArrayEquals(sent, got);
    }
}
