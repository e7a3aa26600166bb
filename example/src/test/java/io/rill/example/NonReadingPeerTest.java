package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.function.LongPredicate;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.channel.epoll.Epoll;

/**
 * Over real sockets: an example server (the transport's read pause, on by default) stops reading from a client that sends without
 * reading the answers, so the client's sending stalls after a bounded amount instead of the server
 * queueing answers for ever; once the client reads, every answer arrives, in order.
 */
class NonReadingPeerTest {

    /** Enough that a server that never stops reading would take all of it; the kernel buffers take far less. */
    private static final long FLOOD = 512L << 20;
    /** What the kernel buffers on both sides and the server's bounds may take before sending stalls. */
    private static final long STALLS_BELOW = 96L << 20;

    /**
     * Writes {@code pattern} over and over without reading until the socket stays unwritable for
     * 2 s (the server stopped reading) or FLOOD bytes went out; returns the bytes sent.
     */
    private static long sendUntilStalled(SocketChannel ch, byte[] pattern) throws IOException {
        ch.configureBlocking(false);
        long sent = 0;
        try (Selector selector = Selector.open()) {
            ch.register(selector, SelectionKey.OP_WRITE);
            ByteBuffer buf = ByteBuffer.wrap(pattern);
            while (sent < FLOOD) {
                if (selector.select(2000) == 0) {
                    break; // not writable for 2 s: the server is not reading
                }
                selector.selectedKeys().clear();
                int n;
                while ((n = ch.write(buf)) > 0) {
                    sent += n;
                    if (!buf.hasRemaining()) {
                        buf.clear();
                    }
                }
            }
            ch.keyFor(selector).cancel();
        }
        ch.configureBlocking(true);
        return sent;
    }

    /** Reads everything that comes back until {@code done} says so (blocking, with the socket's timeout). */
    private static long readUntil(SocketChannel ch, LongPredicate done, byte[] expectedPattern) throws IOException {
        ch.socket().setSoTimeout(30_000);
        var in = ch.socket().getInputStream();
        byte[] buf = new byte[1 << 16];
        long got = 0;
        while (!done.test(got)) {
            int n = in.read(buf);
            if (n < 0) {
                break;
            }
            if (expectedPattern != null) {
                for (int i = 0; i < n; i++) {
                    assertEquals(expectedPattern[(int) ((got + i) % expectedPattern.length)], buf[i], "byte " + (got + i));
                }
            }
            got += n;
        }
        return got;
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void echoServerStopsReadingFromAClientThatDoesNotReadAndAnswersAllOnceItDoes(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        byte[] pattern = new byte[65521]; // a prime length, so a lost or repeated piece shows
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i * 31 + 7);
        }
        try (LoopbackServer server = new LoopbackServer(new EchoServer.EchoHandler(), 1, transport);
                SocketChannel client = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            long sent = sendUntilStalled(client, pattern);
            assertTrue(sent < STALLS_BELOW, "the server kept reading: " + sent + " bytes sent unread");
            assertEquals(sent, readUntil(client, got -> got >= sent, pattern), "every byte echoed, in order");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void httpHelloStopsReadingPipelinedRequestsFromAClientThatDoesNotReadAndAnswersAllOnceItDoes(String transport)
            throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        byte[] request = "GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        ChannelInitializer<Channel> hello = HttpHelloServer.initializer(HttpServerTimeouts.DEFAULT, null);
        try (LoopbackServer server = new LoopbackServer(hello, 1, transport);
                SocketChannel client = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            long sent = sendUntilStalled(client, request);
            assertTrue(sent < STALLS_BELOW, "the server kept reading: " + sent + " bytes sent unread");
            long requests = sent / request.length; // the last may be cut short: it is not answered
            byte[] oneResponse = responseTo(server.port(), request);
            long expected = requests * oneResponse.length;
            assertEquals(expected, readUntil(client, got -> got >= expected, null), requests + " requests");
        }
    }

    /** The bytes of one answer, from a connection of its own (same second, so same Date, most likely). */
    private static byte[] responseTo(int port, byte[] request) throws IOException {
        try (SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            ch.write(ByteBuffer.wrap(request));
            ch.socket().setSoTimeout(10_000);
            byte[] buf = new byte[4096];
            int n = ch.socket().getInputStream().read(buf);
            return java.util.Arrays.copyOf(buf, n);
        }
    }
}
