package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.EventExecutor;

/**
 * An event loop outlives whatever a task, a handler or the log backend throws, short of a
 * {@code VirtualMachineError} (issue 20): after each, every loop of the group still runs tasks and
 * the server still answers, on the connection that saw the failure and on a new one.
 */
abstract class SocketLoopSurvivalTests extends AbstractSocketTest {

    @Test
    void loopSurvivesATaskThatThrowsAnErrorAndCannotEvenBeDescribed() throws Exception {
        Channel server = startServer(new TriggeredFailure(false));
        for (EventExecutor loop : group) {
            loop.execute(new Bomb());
        }
        assertServes(server);
    }

    @Test
    void connectionSurvivesAHandlerThatThrowsAnErrorAndRethrowsItFromExceptionCaught() throws Exception {
        Channel server = startServer(new TriggeredFailure(true));
        ByteCollector reply = new ByteCollector();
        Channel client = connect(server, reply);
        assertEquals("thrown", roundTrip(client, reply, 0, "fail"));
        assertEquals("still here", roundTrip(client, reply, 6, "still here"));
        assertServes(server);
    }

    @Test
    void aLogBackendThatThrowsNeitherKillsTheLoopNorFailsARequest() throws Exception {
        Set<Thread> loopThreads = new HashSet<>();
        for (EventExecutor loop : group) {
            loopThreads.add(loop.submit(Thread::currentThread).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        ThrowingLogHandler backend = new ThrowingLogHandler(loopThreads);
        Logger root = Logger.getLogger("");
        root.addHandler(backend);
        try {
            // Both failures below are logged on a loop: a task's Error by the loop, an unhandled
            // handler Error by the pipeline's tail. Each log call meets the throwing backend.
            Channel server = startServer(new TriggeredFailure(false));
            for (EventExecutor loop : group) {
                loop.execute(() -> {
                    throw new Error("a task's Error, logged through a broken backend");
                });
            }
            ByteCollector reply = new ByteCollector();
            Channel client = connect(server, reply);
            assertEquals("thrown", roundTrip(client, reply, 0, "fail"));
            assertEquals("still here", roundTrip(client, reply, 6, "still here"));
            assertServes(server);
            assertTrue(backend.failures.get() >= 2, "the backend was called " + backend.failures + " times");
        } finally {
            root.removeHandler(backend);
        }
    }

    /** Every loop runs a task, and a new connection is answered. */
    private void assertServes(Channel server) throws Exception {
        for (EventExecutor loop : group) {
            assertEquals("alive", loop.submit(() -> "alive").get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        ByteCollector reply = new ByteCollector();
        Channel client = connect(server, reply);
        assertEquals("ping", roundTrip(client, reply, 0, "ping"));
    }

    private static String roundTrip(Channel client, ByteCollector reply, int from, String text) throws Exception {
        await(client.writeAndFlush(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII)));
        int length = "fail".equals(text) ? "thrown".length() : text.length();
        return new String(reply.await(from, length), StandardCharsets.US_ASCII);
    }

    /** A task that throws an Error, and whose toString() throws too (as the loop reports it). */
    private static final class Bomb implements Runnable {
        @Override
        public void run() {
            throw new Error("a task's Error (not a VirtualMachineError)");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("and its toString() throws as well");
        }
    }

    /**
     * Echoes, except that "fail" is answered with "thrown" and then an Error is thrown; with
     * {@code rethrow} its exceptionCaught throws the cause back, else the cause reaches the tail.
     */
    @ChannelHandler.Sharable
    private static final class TriggeredFailure implements ChannelHandler {
        private final boolean rethrow;

        TriggeredFailure(boolean rethrow) {
            this.rethrow = rethrow;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            if (!buf.toString(StandardCharsets.US_ASCII).equals("fail")) {
                ctx.writeAndFlush(buf);
                return;
            }
            buf.release();
            ctx.writeAndFlush(Unpooled.copiedBuffer("thrown", StandardCharsets.US_ASCII));
            throw new Error("a handler's Error (not a VirtualMachineError)");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
            if (!rethrow) {
                ctx.fireExceptionCaught(cause);
            } else if (cause instanceof Error error) {
                throw error;
            } else {
                throw (Exception) cause;
            }
        }
    }

    /** A java.util.logging handler that fails on the given threads, as a formatter short of a descriptor does. */
    private static final class ThrowingLogHandler extends Handler {
        final AtomicInteger failures = new AtomicInteger();
        private final Set<Thread> threads;

        ThrowingLogHandler(Set<Thread> threads) {
            this.threads = threads;
        }

        @Override
        public void publish(LogRecord record) {
            if (threads.contains(Thread.currentThread())) {
                failures.incrementAndGet();
                throw new NoClassDefFoundError("simulated: the log formatter could not load its time-zone data");
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
