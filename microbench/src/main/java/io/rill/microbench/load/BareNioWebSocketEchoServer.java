package io.rill.microbench.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * The JDK NIO floor for ws-load.sh: the loop of {@code microbench/load/ws-echo-server.c} written
 * over {@code java.nio} alone, with no channel, pipeline or buffer pool. One selector thread, ready
 * keys handed to a consumer ({@link Selector#select(java.util.function.Consumer)}), one read into a
 * direct buffer all connections share, every complete client frame unmasked into a second shared
 * buffer and one write back. Against the C server it shows what the JDK's selector and socket
 * channels cost per message; against Rill's {@code websocket-echo --transport nio}, what the
 * framework costs on top of them.
 *
 * <p>A measuring instrument, not a server: no extensions, UTF-8 checks or limits, and a connection
 * whose echo the socket cannot take whole is dropped (the load generator's one message in flight
 * always fits).
 *
 * <pre>
 *   java -cp microbench/target/benchmarks.jar io.rill.microbench.load.BareNioWebSocketEchoServer PORT
 * </pre>
 */
public final class BareNioWebSocketEchoServer {

    private static final int BUFFER = 1 << 17;
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.BIG_ENDIAN);
    private final ByteBuffer out = ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.BIG_ENDIAN);
    private final Selector selector;
    private final ServerSocketChannel listener;

    /** What one connection keeps between reads: whether it upgraded, and input not yet consumed. */
    private static final class Connection {
        boolean upgraded;
        byte[] rest;
    }

    private BareNioWebSocketEchoServer(int port) throws IOException {
        selector = Selector.open();
        listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress("127.0.0.1", port), 4096);
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    /**
     * Serves until killed.
     *
     * @param args the port
     * @throws IOException if the port cannot be bound
     */
    public static void main(String[] args) throws IOException {
        BareNioWebSocketEchoServer server = new BareNioWebSocketEchoServer(Integer.parseInt(args[0]));
        System.out.println("Listening on " + args[0]);
        for (;;) {
            server.selector.select(server::ready);
        }
    }

    private void ready(SelectionKey key) {
        try {
            if (key.channel() == listener) {
                for (SocketChannel c; (c = listener.accept()) != null; ) {
                    c.configureBlocking(false);
                    c.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                    c.register(selector, SelectionKey.OP_READ, new Connection());
                }
            } else if (!serve((SocketChannel) key.channel(), (Connection) key.attachment())) {
                key.channel().close();
            }
        } catch (IOException e) {
            try {
                key.channel().close();
            } catch (IOException ignored) {
                // closing a broken socket: nothing left to do
            }
        }
    }

    /** Reads once, echoes every complete frame; false when the connection is to be dropped. */
    private boolean serve(SocketChannel channel, Connection c) throws IOException {
        in.clear();
        if (c.rest != null) {
            in.put(c.rest);
            c.rest = null;
        }
        if (channel.read(in) < 0) {
            return false;
        }
        in.flip();
        out.clear();
        if (!c.upgraded && !upgrade(c)) {
            return in.remaining() < BUFFER / 2; // an incomplete request waits; a huge one is refused
        }
        echoFrames();
        if (in.hasRemaining()) {
            c.rest = new byte[in.remaining()];
            in.get(c.rest);
        }
        out.flip();
        return channel.write(out) >= 0 && !out.hasRemaining();
    }

    /** Answers the upgrade into {@code out} once the request in {@code in} is complete. */
    private boolean upgrade(Connection c) {
        byte[] bytes = new byte[in.remaining()];
        in.duplicate().get(bytes);
        String request = new String(bytes, StandardCharsets.ISO_8859_1);
        int end = request.indexOf("\r\n\r\n");
        if (end < 0) {
            return false;
        }
        int at = request.toLowerCase(Locale.ROOT).indexOf("\r\nsec-websocket-key:");
        if (at < 0 || at > end) {
            throw new IllegalStateException("not a WebSocket upgrade");
        }
        String key = request.substring(at + 20, request.indexOf("\r\n", at + 2)).trim();
        String answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + accept(key) + "\r\n\r\n";
        out.put(answer.getBytes(StandardCharsets.ISO_8859_1));
        in.position(in.position() + end + 4);
        c.upgraded = true;
        return true;
    }

    private static String accept(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Unmasks every complete client frame in {@code in} into an unmasked one in {@code out}. */
    private void echoFrames() {
        while (in.remaining() >= 2) {
            int start = in.position();
            int first = in.get(start) & 0xff;
            long length = in.get(start + 1) & 0x7f;
            int head = 2;
            if (length == 126) {
                head = 4;
                length = in.remaining() >= head ? in.getShort(start + 2) & 0xffff : -1;
            } else if (length == 127) {
                head = 10;
                length = in.remaining() >= head ? in.getLong(start + 2) : -1;
            }
            if (length < 0 || in.remaining() < head + 4 + length || out.remaining() < 10 + length) {
                return;
            }
            out.put((byte) first);
            if (length < 126) {
                out.put((byte) length);
            } else if (length < 65536) {
                out.put((byte) 126).putShort((short) length);
            } else {
                out.put((byte) 127).putLong(length);
            }
            unmask(start + head, (int) length);
            in.position(start + head + 4 + (int) length);
        }
    }

    /** Copies the payload after the mask at {@code maskAt} into {@code out}, XOR the mask, 8 bytes at a time. */
    private void unmask(int maskAt, int length) {
        int mask4 = in.getInt(maskAt);
        long mask = (long) mask4 << 32 | (mask4 & 0xffffffffL);
        int from = maskAt + 4;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            out.putLong(in.getLong(from + i) ^ mask);
        }
        for (; i < length; i++) {
            out.put((byte) (in.get(from + i) ^ in.get(maskAt + (i & 3))));
        }
    }
}
