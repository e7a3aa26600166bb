package io.rill.example;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rill.util.concurrent.DefaultEventExecutorGroup;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Shows the executor model without a network: tasks scheduled at a fixed rate on an executor
 * group, listeners on their futures, and a graceful shutdown. {@code --ticks N} (default 5).
 */
final class SchedulerDemo implements Example {

    @Override
    public String name() {
        return "scheduler-demo";
    }

    @Override
    public String description() {
        return "schedules ticks on an executor group, then shuts it down gracefully";
    }

    private static final ExampleOption TICKS = ExampleOption.number("ticks", "N", 5, 1, 1_000_000,
            "ticks to wait for before shutting down");

    @Override
    public List<ExampleOption> options() {
        return List.of(TICKS);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        int ticks = options.intValue(TICKS);
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(options.threads == 0 ? 2 : options.threads);
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS)));
        EventExecutor loop = group.next();
        CountDownLatch done = new CountDownLatch(1);
        AtomicInteger count = new AtomicInteger();
        long start = System.nanoTime();
        ScheduledFuture<?> ticker = loop.scheduleAtFixedRate(() -> {
            int tick = count.incrementAndGet();
            if (tick > ticks) {
                return; // a run that came due before the main thread cancelled the ticker
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.printf("tick %d at +%d ms on %s%n", tick, ms, Thread.currentThread().getName());
            if (tick == ticks) {
                done.countDown();
            }
        }, 0, 100, TimeUnit.MILLISECONDS);
        ticker.addListener(f -> System.out.println("ticker stopped: " + (f.isCancelled() ? "cancelled" : f.cause())));
        if (!done.await(ticks * 1000L + 5000, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("ticks did not arrive in time");
        }
        ticker.cancel(false);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        System.out.println("executor group terminated");
    }
}
