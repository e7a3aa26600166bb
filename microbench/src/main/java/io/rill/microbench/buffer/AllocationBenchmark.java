package io.rill.microbench.buffer;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.buffer.UnpooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * Allocate-and-release cost per size: Rill's pooled allocator against the JDK
 * ({@code new byte[]}, {@code ByteBuffer.allocateDirect}) and Rill's unpooled allocator.
 * Leak detection is off ({@code -Drill.leakDetection.level=DISABLED} in the fork) so the
 * numbers are the allocator's own. {@link Allocation2Threads} runs the same with two threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Drill.leakDetection.level=DISABLED", "-Xmx1g", "-XX:MaxDirectMemorySize=1g"})
public class AllocationBenchmark {

    @Param({"00016", "00064", "00256", "01000", "04096", "16384", "65536", "262144", "1048576"})
    public String size;

    int n;
    final PooledByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
    final UnpooledByteBufAllocator unpooled = UnpooledByteBufAllocator.DEFAULT;

    @org.openjdk.jmh.annotations.Setup
    public void setup() {
        n = Integer.parseInt(size);
    }

    @Benchmark
    public byte[] jdkHeap() {
        return new byte[n];
    }

    @Benchmark
    public ByteBuffer jdkDirect() {
        return ByteBuffer.allocateDirect(n);
    }

    @Benchmark
    public boolean pooledHeap() {
        ByteBuf buf = pooled.heapBuffer(n);
        return buf.release();
    }

    @Benchmark
    public boolean pooledDirect() {
        ByteBuf buf = pooled.directBuffer(n);
        return buf.release();
    }

    @Benchmark
    public boolean unpooledHeap() {
        return unpooled.heapBuffer(n).release();
    }

    @Benchmark
    public boolean unpooledDirect() {
        return unpooled.directBuffer(n).release();
    }

    /** The same benchmarks with two threads allocating at once. */
    @Threads(2)
    public static class Allocation2Threads extends AllocationBenchmark {
    }
}
