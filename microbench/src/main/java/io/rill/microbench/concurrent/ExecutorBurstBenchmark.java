package io.rill.microbench.concurrent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.util.concurrent.DefaultEventExecutor;

/**
 * Submits a burst of tiny tasks from outside to a one-thread executor and waits for the last:
 * the cost of the hand-off (queue, wake-up) that every cross-thread write to a channel pays.
 * Rill's executor against a one-thread {@link ThreadPoolExecutor} and a {@link ForkJoinPool} of
 * parallelism 1.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ExecutorBurstBenchmark {

    @Param({"rill", "threadPool", "forkJoin"})
    public String executor;

    @Param({"1", "1000"})
    public int burst;

    private ExecutorService service;

    @Setup
    public void start() {
        switch (executor) {
            case "rill":
                service = new DefaultEventExecutor();
                break;
            case "threadPool":
                service = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
                break;
            case "forkJoin":
                service = new ForkJoinPool(1);
                break;
            default:
                throw new IllegalArgumentException(executor);
        }
    }

    @TearDown
    public void stop() throws InterruptedException {
        service.shutdown();
        service.awaitTermination(5, TimeUnit.SECONDS);
    }

    @Benchmark
    public void submitBurstAndAwaitLast() throws InterruptedException {
        Burst b = new Burst(burst);
        for (int i = 0; i < burst; i++) {
            service.execute(b);
        }
        b.done.await();
    }

    /** Counts down on the executor's one thread; the last run releases the benchmark thread. */
    private static final class Burst implements Runnable {
        final CountDownLatch done = new CountDownLatch(1);
        int left;

        Burst(int n) {
            left = n;
        }

        @Override
        public void run() {
            if (--left == 0) {
                done.countDown();
            }
        }
    }
}
