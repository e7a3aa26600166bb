package io.rill.testsuite.observability;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultEventExecutorGroup;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Promise;

/**
 * Run in a fresh JVM by {@link JfrStartupCostTest}. {@code jdk}: prints how late the first task of
 * a JDK {@link ScheduledThreadPoolExecutor} runs. {@code rill}: the same for Rill's executor, then a
 * TCP exchange over NIO sockets with pooled buffers, then a JFR recording of {@code io.rill.TaskLag}
 * started only now, which must still see a late task ({@code -Drill.jfr.taskLagThresholdMillis=0}).
 */
public final class FirstTaskProbe {

    private FirstTaskProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("jdk")) {
            ScheduledThreadPoolExecutor jdk = new ScheduledThreadPoolExecutor(1);
            System.out.println("lateness-us " + firstTaskLateness(task -> jdk.schedule(task, 0, TimeUnit.MILLISECONDS)));
            jdk.shutdown();
            return;
        }
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(1);
        EventExecutor executor = group.next();
        System.out.println("lateness-us " + firstTaskLateness(task -> executor.schedule(task, 0, TimeUnit.MILLISECONDS)));
        exchangeOverSockets();
        System.out.println("exchanged");
        System.out.println("task-lag-events " + taskLagEventsOfALateRecording(executor));
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private interface Scheduler {
        void schedule(Runnable task);
    }

    /** Microseconds from the schedule call to the start of the task, asked to run at once. */
    private static long firstTaskLateness(Scheduler scheduler) throws InterruptedException {
        AtomicLong ran = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        Runnable task = () -> {
            ran.set(System.nanoTime());
            done.countDown();
        };
        long scheduled = System.nanoTime();
        scheduler.schedule(task);
        if (!done.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the first task did not run within 10 s");
        }
        return TimeUnit.NANOSECONDS.toMicros(ran.get() - scheduled);
    }

    private static void exchangeOverSockets() throws Exception {
        MultiThreadIoEventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel server = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelHandler() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ctx.writeAndFlush(msg);
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
            Promise<Void> echoed = loops.next().newPromise();
            Channel client = new Bootstrap().group(loops).channel(NioSocketChannel.class)
                    .handler(new ChannelHandler() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ((ByteBuf) msg).release();
                            echoed.trySuccess(null);
                        }
                    })
                    .connect(server.localAddress()).sync().getNow();
            client.writeAndFlush(client.alloc().buffer().writeLong(42)).sync();
            echoed.get(10, TimeUnit.SECONDS);
            client.close().sync();
            server.close().sync();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    private static long taskLagEventsOfALateRecording(EventExecutor executor) throws Exception {
        Path file = Files.createTempFile("rill-first-task", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.TaskLag");
            recording.start();
            executor.submit(() -> { }).sync();
            recording.stop();
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals("io.rill.TaskLag")).count();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
