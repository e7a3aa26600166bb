package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rill.channel.epoll.Epoll;

/**
 * RFC 9112 §9.6 on the real file server: a client that sends its requests and then ends its
 * output (shutdown(SHUT_WR)) still gets every answer in full, then the close. Before, the server
 * closed at the client's FIN and delivered a few MB of the 120 MB asked for.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FileServerHalfCloseTest {

    private static final int FILE_SIZE = 40 << 20;

    @ParameterizedTest(name = "{0}, chunked={1}")
    @CsvSource({"nio, false", "nio, true", "epoll, false", "epoll, true"})
    void requestsSentBeforeTheClientsFinAreAnsweredInFull(String transport, boolean chunked, @TempDir Path dir)
            throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve("big.bin").toFile(), "rw")) {
            f.setLength(FILE_SIZE); // a sparse file of zeros
        }
        try (LoopbackServer server = new LoopbackServer(HttpFileServer.initializer(dir, chunked), 1, transport);
             SocketChannel peer = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            String get = "GET /big.bin HTTP/1.1\r\nHost: a\r\n\r\n";
            peer.write(ByteBuffer.wrap((get + get + get).getBytes(StandardCharsets.US_ASCII)));
            peer.shutdownOutput();
            long[] counted = readToEnd(peer);
            assertEquals(3, counted[1], "three answers");
            assertEquals(3L * FILE_SIZE, counted[0], "every byte of the three bodies");
        }
    }

    /** Reads until the server closes; returns {body bytes (zeros), "200 OK" count}. */
    private static long[] readToEnd(SocketChannel peer) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1 << 20);
        long zeros = 0;
        long ok = 0;
        StringBuilder heads = new StringBuilder();
        while (peer.read(buf) >= 0) {
            buf.flip();
            while (buf.hasRemaining()) {
                byte b = buf.get();
                if (b == 0) {
                    zeros++;
                } else {
                    heads.append((char) b);
                }
            }
            buf.clear();
        }
        for (int at = heads.indexOf("HTTP/1.1 200 OK"); at >= 0; at = heads.indexOf("HTTP/1.1 200 OK", at + 1)) {
            ok++;
        }
        return new long[] {zeros, ok};
    }
}
