package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.epoll.Epoll;

/** Over real sockets: a chat member that never reads costs at most --max-queued bytes, then it is dropped. */
class LineChatServerTest {

    /** Well above what a member that does read falls behind on a busy machine, so only the sleeper goes. */
    private static final int MAX_QUEUED = 16 << 20;

    private static Socket join(int port, int receiveBuffer) throws IOException {
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer); // before connecting, so the window stays small
        }
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(30_000);
        return s;
    }

    /** Reads one CRLF-terminated line byte by byte, so nothing after it is consumed. */
    static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b < 0) {
                throw new IOException("end of stream after '" + sb + "'");
            }
            sb.append((char) b);
        }
        return sb.toString().strip();
    }

    private static String nickOf(String welcome) {
        assertTrue(welcome.startsWith("Welcome, "), welcome);
        return welcome.substring("Welcome, ".length(), welcome.indexOf('.'));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void aMemberThatNeverReadsIsDisconnectedTheOthersAreToldAndStillGetEveryLine(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        int lines = 64_000; // 64 MB: far more than the kernel buffers and the bound together
        String line = "x".repeat(999);
        // Three loops, one member each: lines reach the sleeper from another loop's thread, through its task queue.
        try (LoopbackServer server = new LoopbackServer(LineChatServer.initializer(1024, MAX_QUEUED), 3, transport);
                Socket sleeper = join(server.port(), 4096);
                Socket listener = join(server.port(), 0);
                Socket sender = join(server.port(), 0)) {
            String sleeperNick = nickOf(readLine(sleeper.getInputStream())); // then it never reads again
            BufferedReader heard = new BufferedReader(new InputStreamReader(listener.getInputStream(), StandardCharsets.UTF_8));
            nickOf(heard.readLine());
            String senderNick = nickOf(readLine(sender.getInputStream()));

            String expectedNotice = "* " + sleeperNick + " was disconnected: more than " + MAX_QUEUED
                    + " bytes of lines waited for it to read";
            CountDownLatch noticed = new CountDownLatch(1);
            CountDownLatch allHeard = new CountDownLatch(1);
            AtomicInteger chatLines = new AtomicInteger();
            CompletableFuture<Void> listening = TestThreads.run("chat-listener", () -> {
                try {
                    for (String l; (l = heard.readLine()) != null; ) {
                        if (l.equals(expectedNotice)) {
                            noticed.countDown();
                        } else if (l.equals("<" + senderNick + "> " + line) && chatLines.incrementAndGet() == lines) {
                            allHeard.countDown();
                        }
                        if (noticed.getCount() == 0 && allHeard.getCount() == 0) {
                            return;
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            CompletableFuture<Void> sending = TestThreads.run("chat-talker", () -> {
                try {
                    OutputStream out = sender.getOutputStream();
                    byte[] bytes = (line + "\n").getBytes(StandardCharsets.US_ASCII);
                    for (int i = 0; i < lines; i++) {
                        out.write(bytes);
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });

            assertTrue(noticed.await(60, TimeUnit.SECONDS), "the others are told the sleeper was dropped");
            sending.get(60, TimeUnit.SECONDS);
            assertTrue(allHeard.await(60, TimeUnit.SECONDS), "a member that reads heard " + chatLines + " of " + lines);
            listening.get(10, TimeUnit.SECONDS);

            // The sleeper finds what its kernel buffers held, then the end of the stream: far from everything.
            long got = sleeper.getInputStream().transferTo(OutputStream.nullOutputStream());
            assertTrue(got < (long) lines * 1000 / 2, "the dropped member got " + got + " bytes");
            assertEquals(-1, sleeper.getInputStream().read());
        }
    }
}
