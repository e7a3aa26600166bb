package io.rill.testsuite.loop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.EventLoop;
import io.rill.channel.IoHandle;
import io.rill.channel.IoHandler;
import io.rill.channel.IoHandlerContext;
import io.rill.channel.IoRegistration;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * The one thing an event loop does not survive is a {@link VirtualMachineError}. When it ends that
 * way it says so, with the cause, and closes its channels rather than leaving them registered
 * with a poller nobody polls.
 */
class LoopEndTest {

    @Test
    void aLoopEndedByAVirtualMachineErrorReportsItsCauseAndClosesItsChannels() throws Exception {
        DyingHandler[] handler = new DyingHandler[1];
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
                new DefaultThreadFactory("loop-end", true), () -> handler[0] = new DyingHandler());
        BlockingQueue<LogRecord> reports = new LinkedBlockingQueue<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel() == Level.SEVERE && Thread.currentThread().getName().startsWith("loop-end")) {
                    reports.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        try {
            Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelHandler() { })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
            EventLoop loop = server.eventLoop();
            handler[0].dying = true;
            try {
                loop.execute(() -> { }); // wakes the poller, whose next turn throws
            } catch (java.util.concurrent.RejectedExecutionException alreadyEnded) {
                // The poller woke by itself (a timed select) and its turn threw first: the loop is ending.
            }

            assertTrue(server.closeFuture().await(10, TimeUnit.SECONDS), "the server channel was left open");
            assertTrue(loop.terminationFuture().await(10, TimeUnit.SECONDS), "the loop did not terminate");
            assertFalse(server.isOpen());
            LogRecord report = reports.poll(10, TimeUnit.SECONDS);
            assertTrue(report != null, "the end of the loop was not reported");
            assertTrue(report.getMessage().contains("ended unexpectedly"), report.getMessage());
            assertInstanceOf(InternalError.class, report.getThrown());
        } finally {
            root.removeHandler(capture);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
    }

    /** The NIO handler, except that once {@code dying} is set its next turn throws a VirtualMachineError. */
    private static final class DyingHandler implements IoHandler {
        private final IoHandler nio = NioIoHandler.newFactory().newHandler();
        volatile boolean dying;

        @Override
        public int run(IoHandlerContext context) {
            if (dying) {
                throw new InternalError("simulated: the JVM is failing");
            }
            return nio.run(context);
        }

        @Override
        public void wakeup() {
            nio.wakeup();
        }

        @Override
        public IoRegistration register(IoHandle handle) throws Exception {
            return nio.register(handle);
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return nio.isCompatible(handleType);
        }

        @Override
        public void prepareToDestroy() {
            nio.prepareToDestroy();
        }

        @Override
        public void destroy() {
            nio.destroy();
        }
    }
}
