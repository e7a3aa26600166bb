package io.rill.microbench.buffer;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.util.ResourceLeakDetector;
import io.rill.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Allocate+release in batches run on a thread of our choice: a {@link FastThreadLocalThread}
 * (what Rill's event loops are: the allocator finds its thread cache with one array read) or
 * a plain thread (a {@code ThreadLocal} lookup per allocation), at leak-detection level
 * DISABLED or SIMPLE (the production default, sampling one buffer in 128). JMH cannot run a
 * benchmark on a thread it did not make, so each invocation hands a batch to a one-thread
 * executor and waits; the handoff (a few microseconds) is spread over {@link #BATCH}
 * operations and is the same for every variant, {@code new byte[]} included.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(AllocationOnThreadBenchmark.BATCH)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:MaxDirectMemorySize=1g"})
public class AllocationOnThreadBenchmark {

    static final int BATCH = 16384;

    @Param({"fast", "plain"})
    public String thread;

    @Param({"DISABLED", "SIMPLE"})
    public String leakDetection;

    @Param({"00256", "01000", "04096"})
    public String size;

    private int n;
    private ExecutorService executor;
    private final PooledByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
    /** Keeps the JDK allocations observable so the JIT cannot drop them. */
    private volatile Object sink;

    @Setup(Level.Trial)
    public void setup() {
        n = Integer.parseInt(size);
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.valueOf(leakDetection));
        executor = Executors.newSingleThreadExecutor(
                "fast".equals(thread) ? FastThreadLocalThread::new : Thread::new);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        executor.shutdownNow();
    }

    private long run(java.util.concurrent.Callable<Long> batch) throws InterruptedException, ExecutionException {
        return executor.submit(batch).get();
    }

    @Benchmark
    public long pooledHeap() throws Exception {
        return run(() -> {
            long released = 0;
            for (int i = 0; i < BATCH; i++) {
                ByteBuf buf = pooled.heapBuffer(n);
                released += buf.release() ? 1 : 0;
            }
            return released;
        });
    }

    @Benchmark
    public long pooledDirect() throws Exception {
        return run(() -> {
            long released = 0;
            for (int i = 0; i < BATCH; i++) {
                ByteBuf buf = pooled.directBuffer(n);
                released += buf.release() ? 1 : 0;
            }
            return released;
        });
    }

    @Benchmark
    public long jdkHeap() throws Exception {
        return run(() -> {
            long length = 0;
            for (int i = 0; i < BATCH; i++) {
                byte[] array = new byte[n];
                length += array.length;
                if ((i & 1023) == 0) {
                    sink = array;
                }
            }
            return length;
        });
    }
}
