package io.rill.handler.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;

/**
 * A ClientHello the server refuses is answered with a fatal alert that reaches the client, over a
 * real socket (docs/security-cases.md, case T-09), though a handler behind TLS closes the channel
 * as soon as it hears of the failure. Before: that close came before the alert was written; the
 * JDK's engine gives its alert only on the wrap after the one that rethrows a delegated task's
 * failure; and a close with the rest of a large hello unread sent a reset that dropped the alert
 * at the client.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TlsAlertTest {

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private SslContext context;

    @AfterEach
    void stop() throws InterruptedException {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        if (context != null) {
            context.close();
        }
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void t_09_aClientHelloNamingTheSameServerTwiceGetsAFatalAlert(SslProvider provider) throws Exception {
        assumeTrue(provider.isAvailable(), provider + " is not available here");
        byte[] alert = exchange(provider, ClientHellos.withServerNames(20));
        assertFatalAlert(alert);
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = "JDK")
    void t_09_aClientHelloOverTheEnginesSizeLimitGetsAFatalAlertDespiteTheUnreadRest(SslProvider provider) throws Exception {
        byte[] alert = exchange(provider, ClientHellos.withServerNames(900)); // ~60 KB in four records
        assertFatalAlert(alert);
    }

    private static void assertFatalAlert(byte[] answer) {
        assertTrue(answer.length >= 7, "expected an alert record, got " + answer.length + " bytes");
        assertEquals(0x15, answer[0], "an alert record");
        assertEquals(2, answer[5], "level fatal");
    }

    /** What the server sends back, up to its end of stream, to {@code hello}. */
    private byte[] exchange(SslProvider provider, byte[] hello) throws Exception {
        context = TlsFixtures.build(TlsFixtures.serverBuilder(TlsFixtures.LOCALHOST).sslProvider(provider)
                .applicationProtocols("h2", "http/1.1"));
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(context.newHandler(ch.alloc()), new ChannelHandler() {
                            @Override
                            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                                    ctx.close(); // as ALPN negotiation does: at once, before the alert was written
                                }
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                // the refusal is expected
                            }
                        });
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        try (Socket socket = new Socket()) {
            socket.connect(server.localAddress(), 5_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(hello);
            socket.getOutputStream().flush();
            return readToEnd(socket.getInputStream());
        } finally {
            server.close().sync();
        }
    }

    private static byte[] readToEnd(InputStream in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            // a reset: what arrived before it is the answer
        }
        return out.toByteArray();
    }

    /** ClientHello records built by hand: a real client would never send these. */
    static final class ClientHellos {
        private ClientHellos() {
        }

        /** A ClientHello (TLS 1.3 or 1.2, no key share) whose server_name extension lists {@code names} entries of the same host. */
        static byte[] withServerNames(int names) {
            ByteArrayOutputStream entries = new ByteArrayOutputStream();
            byte[] name = "a-host-name-long-enough-to-fill-space-quickly.example".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < names; i++) {
                entries.write(0); // host_name
                entries.write(name.length >> 8);
                entries.write(name.length);
                entries.writeBytes(name);
            }
            ByteArrayOutputStream ext = new ByteArrayOutputStream();
            int list = entries.size();
            extension(ext, 0, concat(new byte[] {(byte) (list >> 8), (byte) list}, entries.toByteArray()));
            extension(ext, 43, new byte[] {4, 3, 4, 3, 3}); // supported_versions: TLS 1.3 and 1.2
            extension(ext, 10, new byte[] {0, 4, 0, 0x17, 0, 0x1d}); // supported_groups
            extension(ext, 13, new byte[] {0, 4, 4, 3, 8, 4}); // signature_algorithms
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            body.writeBytes(new byte[] {3, 3});
            body.writeBytes(new byte[32]); // random
            body.write(0); // no session id
            body.writeBytes(new byte[] {0, 4, (byte) 0xc0, 0x2b, (byte) 0xc0, 0x2f}); // two ECDHE suites
            body.writeBytes(new byte[] {1, 0}); // null compression
            body.write(ext.size() >> 8);
            body.write(ext.size());
            body.writeBytes(ext.toByteArray());
            byte[] b = body.toByteArray();
            byte[] handshake = concat(new byte[] {1, (byte) (b.length >> 16), (byte) (b.length >> 8), (byte) b.length}, b);
            ByteArrayOutputStream records = new ByteArrayOutputStream();
            for (int at = 0; at < handshake.length; at += 16_384) {
                int n = Math.min(16_384, handshake.length - at);
                records.writeBytes(new byte[] {0x16, 3, 1, (byte) (n >> 8), (byte) n});
                records.write(handshake, at, n);
            }
            return records.toByteArray();
        }

        private static void extension(ByteArrayOutputStream out, int type, byte[] data) {
            out.writeBytes(new byte[] {(byte) (type >> 8), (byte) type, (byte) (data.length >> 8), (byte) data.length});
            out.writeBytes(data);
        }

        private static byte[] concat(byte[] a, byte[] b) {
            byte[] c = new byte[a.length + b.length];
            System.arraycopy(a, 0, c, 0, a.length);
            System.arraycopy(b, 0, c, a.length, b.length);
            return c;
        }
    }
}
