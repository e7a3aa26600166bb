package io.rill.handler.codec.smtp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollSocketChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioSocketChannel;

/**
 * Mail sent through Python's aiosmtpd, over NIO and epoll: the greeting, EHLO's multi-line reply,
 * MAIL, RCPT and DATA pipelined in one flush, a message whose lines start with dots and end in
 * bare LFs (SMTP-02), and QUIT. aiosmtpd's own log of the message it received must show the
 * message as it was meant, dots un-stuffed and every line intact. Skips outside CI when Python's
 * aiosmtpd is missing; {@code .ci/run} installs it, and in CI a missing one fails.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SmtpInteropTest {

    @TempDir
    Path dir;

    private static boolean aiosmtpdInstalled() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import aiosmtpd").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void mailGoesThroughAiosmtpdWithItsDotsAndLinesIntact(String transport) throws Exception {
        boolean installed = aiosmtpdInstalled();
        if (System.getenv("CI") != null) {
            assertTrue(installed, "Python's aiosmtpd is missing (.ci/run installs it)");
        }
        assumeTrue(installed, "Python's aiosmtpd is not installed (pip install aiosmtpd)");
        boolean epoll = transport.equals("epoll");
        assumeTrue(!epoll || Epoll.isAvailable(), "epoll is not available here");
        Path script = dir.resolve("aiosmtpd_server.py");
        try (InputStream in = getClass().getResourceAsStream("aiosmtpd_server.py")) {
            Files.copy(in, script);
        }
        Process server = new ProcessBuilder("python3", "-u", script.toString()).redirectErrorStream(true).start();
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        try {
            BufferedReader log = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String first = log.readLine();
            assertNotNull(first, "aiosmtpd exited");
            assertTrue(first.startsWith("port "), first);
            int port = Integer.parseInt(first.substring(5).trim());

            BlockingQueue<Object> replies = new LinkedBlockingQueue<>();
            Channel ch = new Bootstrap().group(group)
                    .channelFactory(epoll ? EpollSocketChannel::new : NioSocketChannel::new)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel c) {
                            c.pipeline().addLast(new SmtpResponseDecoder(), new SmtpRequestEncoder(), new ChannelHandler() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    replies.add(msg);
                                }

                                @Override
                                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                    replies.add(cause);
                                }
                            });
                        }
                    })
                    .connect(new InetSocketAddress("127.0.0.1", port)).get(10, TimeUnit.SECONDS);
            assertEquals(220, code(replies));
            ch.writeAndFlush(SmtpRequest.ehlo("client.example"));
            SmtpResponse ehlo = reply(replies);
            assertEquals(250, ehlo.code());
            assertTrue(ehlo.lines().size() > 1, "EHLO's reply has a line per extension: " + ehlo);
            // Pipelined (RFC 2920): three requests in one write.
            ch.write(SmtpRequest.mail("alice@example.org"));
            ch.write(SmtpRequest.rcpt("bob@example.net"));
            ch.writeAndFlush(SmtpRequest.data());
            assertEquals(List.of(250, 250, 354), List.of(code(replies), code(replies), code(replies)));
            ch.write(new SmtpContent(Unpooled.copiedBuffer("Subject: from Rill\r\n\r\n.a line that starts with a dot\n",
                    StandardCharsets.US_ASCII)));
            ch.writeAndFlush(new LastSmtpContent(Unpooled.copiedBuffer(".\nafter a lone dot\r\nthe end",
                    StandardCharsets.US_ASCII)));
            assertEquals(250, code(replies), "the message was accepted whole");
            ch.writeAndFlush(SmtpRequest.quit());
            assertEquals(221, code(replies));
            ch.closeFuture().get(10, TimeUnit.SECONDS);

            StringBuilder message = new StringBuilder();
            for (String line; (line = log.readLine()) != null && !line.contains("END MESSAGE"); ) {
                message.append(line).append('\n');
            }
            String text = message.toString();
            assertTrue(text.contains("\n.a line that starts with a dot\n.\nafter a lone dot\nthe end\n"), text);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static SmtpResponse reply(BlockingQueue<Object> replies) throws Exception {
        Object got = replies.poll(10, TimeUnit.SECONDS);
        assertNotNull(got, "no reply within 10 s");
        if (got instanceof Throwable t) {
            throw new AssertionError("the client failed", t);
        }
        return (SmtpResponse) got;
    }

    private static int code(BlockingQueue<Object> replies) throws Exception {
        return reply(replies).code();
    }
}
