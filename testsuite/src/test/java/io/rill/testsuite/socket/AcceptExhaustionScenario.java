package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoopGroup;

/**
 * The body of {@link SocketAcceptExhaustionTests}, run in a JVM of its own because it exhausts
 * that JVM's file descriptors: anything that lazily opens a file meanwhile (a time-zone table for
 * a log line, a class from a new jar) fails, and a failed class initialisation stays failed for
 * the life of the JVM. Prints {@code PASS} and exits 0, or prints the failure and exits 1.
 *
 * <p>Argument: the name of a {@link SocketTestSuite} subclass, whose transport is used.
 */
final class AcceptExhaustionScenario {

    /** Descriptors left free above the count open when the limit is lowered; the fill takes them. */
    private static final int HEADROOM = 64;
    /** Connections waiting in the backlog while descriptors run out. */
    private static final int CONNECTIONS = 3;
    private static final long TIMEOUT_SECONDS = AbstractSocketTest.TIMEOUT_SECONDS;

    private AcceptExhaustionScenario() {
    }

    public static void main(String[] args) {
        int status = 1;
        try {
            var ctor = Class.forName(args[0]).getDeclaredConstructor();
            ctor.setAccessible(true);
            run(((SocketTestSuite) ctor.newInstance()).transport());
            System.out.println("PASS");
            status = 0;
        } catch (Throwable t) {
            t.printStackTrace(System.out);
        }
        System.out.flush();
        Runtime.getRuntime().halt(status); // no shutdown hooks: they may need descriptors too
    }

    private static void run(SocketTransport transport) throws Exception {
        // Log once first so the logging machinery has loaded what it needs before files run out.
        System.getLogger(AcceptExhaustionScenario.class.getName()).log(System.Logger.Level.INFO, "warm-up at {0}",
                java.time.ZonedDateTime.now());
        EventLoopGroup group = transport.groupFactory().apply(2);
        BlockingQueue<Throwable> serverErrors = new LinkedBlockingQueue<>();
        BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
        Channel server = new ServerBootstrap().group(group).channelFactory(transport.serverChannel())
                .option(ChannelOption.AUTO_READ, false)
                .handler(new ChannelHandler() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        serverErrors.add(cause);
                    }
                })
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new Echo());
                        accepted.add(ch);
                    }
                }).bind(transport.bindAddress().get()).sync().getNow();
        ByteCollector reply = new ByteCollector();
        Bootstrap clients = new Bootstrap().group(group).channelFactory(transport.clientChannel());
        Channel client = clients.handler(reply).connect(server.localAddress()).sync().getNow();
        for (int i = 1; i < CONNECTIONS; i++) {
            clients.handler(new ByteCollector()).connect(server.localAddress()).sync();
        }
        new Echo(); // loaded now: a connection accepted while files are short must still be served

        // Run the idle check once too: classes load from files (test classes from a directory,
        // one open per class), so everything used while descriptors are gone must be loaded now.
        LoopIdleCheck.assertIdle(server.eventLoop());

        long[] limits = nofileLimits();
        List<FileChannel> fillers = new ArrayList<>();
        try {
            setSoftNofile(openDescriptors() + HEADROOM, limits[1]);
            // The JVM may close a descriptor of its own a little later (a finished process's pipes),
            // letting one accept through; top the fill up and ask again until an accept fails.
            Throwable error = null;
            for (int attempt = 0; attempt < CONNECTIONS && error == null; attempt++) {
                exhaustDescriptors(fillers);
                server.read();
                error = serverErrors.poll(2, TimeUnit.SECONDS);
            }
            assertTrue(error != null, "no accept failed while descriptors were exhausted");
            assertInstanceOf(IOException.class, error);
            assertTrue(String.valueOf(error.getMessage()).contains("Too many open files"), "got " + error);
            LoopIdleCheck.assertIdle(server.eventLoop());
        } finally {
            for (FileChannel f : fillers) {
                f.close();
            }
            setSoftNofile(limits[0], limits[1]);
        }
        assertTrue(serverErrors.isEmpty(), "one report per failed accept burst: " + serverErrors);
        server.config().setAutoRead(true);
        for (int i = 0; i < CONNECTIONS; i++) {
            assertTrue(poll(accepted).isOpen());
        }
        client.writeAndFlush(Unpooled.copiedBuffer("still served", StandardCharsets.US_ASCII)).sync();
        assertEquals("still served", new String(reply.await(12), StandardCharsets.US_ASCII));
    }

    private static <T> T poll(BlockingQueue<T> queue) throws InterruptedException {
        T item = queue.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertTrue(item != null, "nothing arrived within " + TIMEOUT_SECONDS + " s");
        return item;
    }

    /** Opens /dev/null until the process may open no more; bounded by the headroom. */
    private static void exhaustDescriptors(List<FileChannel> fillers) {
        Path devNull = Path.of("/dev/null");
        for (int i = 0; i < HEADROOM * 4; i++) {
            try {
                fillers.add(FileChannel.open(devNull));
            } catch (IOException e) {
                assertTrue(String.valueOf(e.getMessage()).contains("Too many open files"), "got " + e);
                return;
            }
        }
        throw new AssertionError("the lowered descriptor limit never took effect");
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> list = Files.list(Path.of("/proc/self/fd"))) {
            return list.count();
        }
    }

    /** {soft, hard} from /proc/self/limits ("unlimited" as Long.MAX_VALUE). */
    private static long[] nofileLimits() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max open files")) {
                String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                return new long[] {parseLimit(f[0]), parseLimit(f[1])};
            }
        }
        throw new AssertionError("no 'Max open files' in /proc/self/limits");
    }

    private static long parseLimit(String s) {
        return "unlimited".equals(s) ? Long.MAX_VALUE : Long.parseLong(s);
    }

    private static void setSoftNofile(long soft, long hard) throws Exception {
        String limit = (soft == Long.MAX_VALUE ? "unlimited" : Long.toString(soft)) + ":"
                + (hard == Long.MAX_VALUE ? "unlimited" : Long.toString(hard));
        Process p = new ProcessBuilder("/usr/bin/prlimit", "--pid", Long.toString(ProcessHandle.current().pid()),
                "--nofile=" + limit).redirectErrorStream(true).start();
        try {
            assertTrue(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "prlimit did not finish");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), "prlimit --nofile=" + limit + " failed: " + out);
        } finally {
            p.getInputStream().close();
            p.getOutputStream().close();
        }
    }

    /** Echoes what it reads. */
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }
}
