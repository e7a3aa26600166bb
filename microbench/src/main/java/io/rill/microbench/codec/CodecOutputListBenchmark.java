package io.rill.microbench.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.handler.codec.CodecOutputList;
import io.rill.util.concurrent.DefaultEventExecutor;

/**
 * What a decoder does with its output list per read: take a list, add a few messages, hand
 * them on, give the list back. The pooled {@link CodecOutputList} against a fresh
 * {@code ArrayList} per read (run with {@code -prof gc} to see the allocation difference).
 *
 * <p>{@code onEventLoop}: a batch of {@link #BATCH} reads runs as one task on an executor
 * thread, where {@code FastThreadLocal} is an array read as on Rill's event loops; otherwise
 * on JMH's own (plain) thread, where it falls back to a {@code ThreadLocal} lookup. The task
 * hand-off is amortised over the batch.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class CodecOutputListBenchmark {

    static final int BATCH = 1000;
    private static final Object MSG = new Object();

    @Param({"1", "4", "16"})
    public int messages;

    @Param({"true", "false"})
    public boolean onEventLoop;

    private DefaultEventExecutor executor;
    /** Sink for the batch loops, so nothing is dead code. */
    private int sink;

    @Setup
    public void setUp() {
        executor = new DefaultEventExecutor();
    }

    @TearDown
    public void tearDown() throws InterruptedException {
        executor.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }

    private int run(Runnable batch) throws Exception {
        if (onEventLoop) {
            executor.submit(batch).get();
        } else {
            batch.run();
        }
        return sink;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int pooledOutputList() throws Exception {
        return run(() -> {
            int n = 0;
            for (int b = 0; b < BATCH; b++) {
                CodecOutputList out = CodecOutputList.newInstance();
                for (int i = 0; i < messages; i++) {
                    out.add(MSG);
                }
                for (int i = 0; i < out.size(); i++) {
                    n += out.get(i).hashCode();
                }
                out.recycle();
            }
            sink += n;
        });
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int arrayListPerRead() throws Exception {
        return run(() -> {
            int n = 0;
            for (int b = 0; b < BATCH; b++) {
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < messages; i++) {
                    out.add(MSG);
                }
                for (int i = 0; i < out.size(); i++) {
                    n += out.get(i).hashCode();
                }
                n += out.size();
            }
            sink += n;
        });
    }
}
