package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.net.StandardSocketOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.ChannelOption;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.HttpDecoderConfig;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.HttpServerTimeouts;

/**
 * What the HTTP/1.1 server promised is delivered, over a real connection on every transport:
 * requests pipelined ahead of a bad one are answered in order before the refusal (RFC 9112
 * §9.3.2); a refusal reaches a client that is still sending (the close lingers instead of
 * resetting); a client that half-closes after its requests gets every answer (RFC 9112 §9.6).
 */
abstract class SocketHttpDeliveryTests extends AbstractSocketTest {

    private static final String GET = "GET /a HTTP/1.1\r\nHost: a\r\n\r\n";
    private static final String POST = "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello";
    private static final Pattern RESPONSE = Pattern.compile("HTTP/1\\.1 (\\d{3}) [^\r]*\r\n(?:[^\r]+\r\n)*\r\n");

    private Channel startServer() {
        return startServer(SocketHttpTests.appPipeline(8 << 20));
    }

    @ParameterizedTest(name = "{0} after {1} good requests")
    @CsvSource(delimiter = '|', value = {
        "BLAH\\r\\n\\r\\n | 0 | 400", "BLAH\\r\\n\\r\\n | 1 | 400", "BLAH\\r\\n\\r\\n | 3 | 400",
        "GET / HTTP/9.9\\r\\nHost: a\\r\\n\\r\\n | 2 | 505",
        "POST /echo HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n5\\r\\nhello\\r\\n0\\r\\n\\r\\n | 1 | 200 400"})
    void requestsAheadOfABadOneAreAnsweredInOrderThenTheRefusal(String bad, int good, String refusal) throws Exception {
        StringBuilder pipeline = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < good; i++) {
            pipeline.append(i % 2 == 0 ? GET : POST);
            expected.add("200");
        }
        pipeline.append(bad.replace("\\r\\n", "\r\n")).append(GET);
        expected.addAll(List.of(refusal.split(" ")));
        Channel server = startServer();
        byte[] wire = pipeline.toString().getBytes(StandardCharsets.ISO_8859_1);
        // Whole, and cut inside the bad request: the two halves arrive in separate reads or together.
        for (int split : new int[] {wire.length, wire.length - GET.length() - 3}) {
            ByteCollector received = new ByteCollector();
            // A write after the server closed must not close the client before it read the
            // answers (in-VM channels cannot linger): AUTO_CLOSE off.
            Channel client = track(await(clientBootstrap().option(ChannelOption.AUTO_CLOSE, false)
                    .handler(received).connect(server.localAddress())));
            await(client.writeAndFlush(Unpooled.wrappedBuffer(wire, 0, split)));
            if (split < wire.length) {
                client.writeAndFlush(Unpooled.wrappedBuffer(wire, split, wire.length - split));
            }
            await(client.closeFuture());
            String answer = new String(received.await(received.size()), StandardCharsets.ISO_8859_1);
            assertEquals(expected, statuses(answer), answer);
        }
    }

    @Test
    void aRefusalReachesAClientThatIsStillSendingAndEndsCleanly() throws Exception {
        Channel server = startServer();
        String refusal = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=us-ascii\r\n"
                + "Content-Length: 16\r\nConnection: close\r\n\r\n400 Bad Request\n";
        byte[] flood = new byte[200_000];
        Arrays.fill(flood, (byte) 'x');
        byte[] wire = new byte[8 + flood.length];
        System.arraycopy("BLAH\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0, wire, 0, 8);
        System.arraycopy(flood, 0, wire, 8, flood.length);
        try (SocketChannel peer = jdkPeer(server.localAddress())) {
            // A bad request and bytes the server will never read as requests, in one go: closing
            // with them unread would reset the connection, and a reset destroys what the client
            // has received but not yet read, here the refusal.
            write(peer, wire);
            assertEquals(refusal, readToEnd(peer), "the refusal, then a clean end of stream");
            // The server is still draining what it will not read: more of it is taken, not reset.
            write(peer, flood);
        }
    }

    @Test
    void aClientThatHalfClosesAfterItsRequestsGetsEveryAnswer() throws Exception {
        int size = 8 << 20; // three of these are more than the kernel's socket buffers hold
        Channel server = startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(), new BigAnswers(size));
            }
        });
        try (SocketChannel peer = jdkPeer(server.localAddress())) {
            write(peer, (GET + GET + GET).getBytes(StandardCharsets.US_ASCII));
            peer.shutdownOutput(); // FIN: no more requests, but the answers are still wanted
            String answer = readToEnd(peer);
            assertEquals(List.of("200", "200", "200"), statuses(answer));
            assertEquals(3L * size, answer.chars().filter(c -> c == 'b').count(), "every body byte came back");
        }
    }

    @Test
    void theIdleTimeoutCountsFromTheClientsLastProgressNotFromWhenTheAnswerWasQueued() throws Exception {
        Assumptions.assumeTrue(transport.isInet(), "socket buffer sizes are set on TCP");
        int size = 1 << 20;
        BlockingQueue<Channel> accepted = slowAnswerServer(size);
        try (SocketChannel peer = jdkPeer(startedServer.localAddress())) {
            peer.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
            write(peer, GET.getBytes(StandardCharsets.US_ASCII));
            // A slow reader: 16 KiB every 20 ms, so 1 MiB takes over a second, several idle timeouts.
            ByteBuffer buf = ByteBuffer.allocate(16 * 1024);
            long received = 0;
            while (received < size) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // pacing the client, not waiting for the server
                buf.clear();
                int n = peer.read(buf);
                assertTrue(n >= 0, "the server closed a client that was reading, after " + received + " bytes");
                received += n;
            }
        }
        take(accepted);
    }

    @Test
    void aClientThatStopsReadingIsClosedAtTheIdleTimeout() throws Exception {
        Assumptions.assumeTrue(transport.isInet(), "socket buffer sizes are set on TCP");
        BlockingQueue<Channel> accepted = slowAnswerServer(8 << 20);
        try (SocketChannel peer = jdkPeer(startedServer.localAddress())) {
            peer.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
            write(peer, GET.getBytes(StandardCharsets.US_ASCII)); // and never read
            Channel child = take(accepted);
            await(child.closeFuture()); // within a few idle timeouts of 300 ms (the step timeout is 10 s)
        }
    }

    /**
     * A server whose answers are {@code size} bytes, with small socket buffers so an answer waits
     * in the server for its reader, and an idle timeout of 300 ms; accepted channels are queued.
     */
    private BlockingQueue<Channel> slowAnswerServer(int size) {
        BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
        HttpServerTimeouts timeouts = HttpServerTimeouts.DEFAULT.withIdle(Duration.ofMillis(300));
        startServer(serverBootstrap().childOption(ChannelOption.SO_SNDBUF, 16 * 1024)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(HttpDecoderConfig.DEFAULT,
                                HttpServerCodec.DEFAULT_MAX_PENDING_REQUESTS, timeouts), new BigAnswers(size));
                        accepted.add(track(ch));
                    }
                }));
        return accepted;
    }

    /** Answers each request with {@code size} bytes of 'b'. */
    private static final class BigAnswers implements ChannelHandler {
        private final int size;

        BigAnswers(int size) {
            this.size = size;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            boolean end = msg instanceof LastHttpContent;
            ReferenceCountUtil.release(msg);
            if (end) {
                ByteBuf body = ctx.alloc().buffer(size);
                while (body.isWritable()) {
                    body.writeByte('b');
                }
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body));
            }
        }
    }

    /** A JDK blocking client: it can half-close, and it tells a reset (exception) from an end of stream. */
    private SocketChannel jdkPeer(SocketAddress address) throws IOException {
        Assumptions.assumeTrue(address instanceof InetSocketAddress || address instanceof UnixDomainSocketAddress,
                "needs an operating-system socket");
        SocketChannel peer = address instanceof UnixDomainSocketAddress
                ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
        peer.connect(address);
        return peer;
    }

    private static void write(SocketChannel peer, byte[] bytes) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
            peer.write(buf);
        }
    }

    private static String read(SocketChannel peer, int count) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(count);
        while (buf.hasRemaining() && peer.read(buf) >= 0) {
            // until count bytes or the end of stream
        }
        return new String(buf.array(), 0, buf.position(), StandardCharsets.ISO_8859_1);
    }

    private static String readToEnd(SocketChannel peer) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
        while (peer.read(buf) >= 0) {
            all.write(buf.array(), 0, buf.position());
            buf.clear();
        }
        return all.toString(StandardCharsets.ISO_8859_1);
    }

    /** The status of each response in {@code wire}, skipping bodies by their Content-Length. */
    private static List<String> statuses(String wire) {
        List<String> statuses = new ArrayList<>();
        Matcher m = RESPONSE.matcher(wire);
        int at = 0;
        while (m.find(at) && m.start() == at) {
            statuses.add(m.group(1));
            Matcher length = Pattern.compile("(?i)content-length: (\\d+)").matcher(m.group());
            at = m.end() + (length.find() ? Integer.parseInt(length.group(1)) : 0);
        }
        assertEquals(wire.length(), at, "the wire holds only whole responses: " + wire);
        return statuses;
    }
}
