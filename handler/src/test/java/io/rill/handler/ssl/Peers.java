package io.rill.handler.ssl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;

/**
 * Scaffolding for interop tests: a Rill NIO server on 127.0.0.1 and external processes
 * (openssl, curl) run with a deadline, their output collected whole.
 */
final class Peers {

    static final long TIMEOUT_SECONDS = 20;

    private Peers() {
    }

    /** A Rill server whose accepted channels are set up by {@code init}; close it with {@link #stop}. */
    static final class RillServer implements AutoCloseable {
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        final Channel channel;
        final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();

        RillServer(Consumer<Channel> init) {
            channel = new ServerBootstrap().group(group).channelFactory(NioServerSocketChannel::new)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            init.accept(ch);
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().getNow();
        }

        int port() {
            return ((InetSocketAddress) channel.localAddress()).getPort();
        }

        @Override
        public void close() {
            channel.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** What a finished process said. */
    record Result(int exitCode, String output) {
        Result assertContains(String... needles) {
            for (String n : needles) {
                assertTrue(output.contains(n), "expected '" + n + "' in:\n" + output);
            }
            return this;
        }
    }

    /** Runs {@code command} in {@code dir} with {@code stdin}; its stdout and stderr together. */
    static Result run(Path dir, String stdin, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Thread reader = new Thread(() -> copy(p.getInputStream(), out), "peer-output");
            reader.setDaemon(true);
            reader.start();
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.US_ASCII));
            p.getOutputStream().close();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError(String.join(" ", command) + " did not finish; said:\n" + out);
            }
            reader.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            synchronized (out) {
                return new Result(p.exitValue(), out.toString(StandardCharsets.UTF_8));
            }
        } finally {
            p.destroyForcibly();
        }
    }

    /** Starts a long-running process and waits until its output contains {@code ready}. */
    static Process startAndAwait(Path dir, List<String> command, String ready, ByteArrayOutputStream out)
            throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> copy(p.getInputStream(), out), "peer-output");
        reader.setDaemon(true);
        reader.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        synchronized (out) {
            while (!out.toString(StandardCharsets.UTF_8).contains(ready)) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0 || !p.isAlive()) {
                    p.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " never said '" + ready + "':\n" + out);
                }
                out.wait(Math.min(left, 100));
            }
        }
        return p;
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) > 0; ) {
                synchronized (out) {
                    out.write(buf, 0, n);
                    out.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }
}
