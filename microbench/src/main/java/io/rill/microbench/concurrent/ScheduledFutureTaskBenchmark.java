package io.rill.microbench.concurrent;

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
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Schedules {@code num} tasks on an event loop, from the loop itself, then cancels them all, in
 * the order they were scheduled or in reverse. With a heap whose tasks know their index both
 * orders cost O(n log n); a linear removal makes reverse order O(n²) (seed 003).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScheduledFutureTaskBenchmark {

    private static final Runnable NO_OP = () -> { };

    @Param({"100", "1000", "10000", "100000"})
    public int num;

    private DefaultEventExecutor executor;
    private ScheduledFuture<?>[] futures;

    @Setup
    public void start() {
        executor = new DefaultEventExecutor();
        futures = new ScheduledFuture<?>[num];
    }

    @TearDown
    public void stop() {
        executor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Benchmark
    public Object cancelInOrder() {
        return executor.submit(() -> {
            scheduleAll();
            for (ScheduledFuture<?> f : futures) {
                f.cancel(false);
            }
        }).syncUninterruptibly();
    }

    @Benchmark
    public Object cancelInReverseOrder() {
        return executor.submit(() -> {
            scheduleAll();
            for (int i = futures.length - 1; i >= 0; i--) {
                futures[i].cancel(false);
            }
        }).syncUninterruptibly();
    }

    private void scheduleAll() {
        for (int i = 0; i < futures.length; i++) {
            futures[i] = executor.schedule(NO_OP, i + 1, TimeUnit.HOURS);
        }
    }
}
