package io.rill.microbench.peers;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Netty 4.1's pooled allocator on the sizes of {@code AllocationBenchmark}, for side-by-side
 * runs. Netty's leak detection is off like Rill's; Netty may use Unsafe here, Rill does not.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=DISABLED", "-Xmx1g", "-XX:MaxDirectMemorySize=1g"})
public class NettyAllocationBenchmark {

    @Param({"00016", "00064", "00256", "01000", "04096", "16384", "65536", "262144", "1048576"})
    public String size;

    int n;
    final PooledByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;

    @Setup
    public void setup() {
        n = Integer.parseInt(size);
    }

    @Benchmark
    public boolean nettyPooledHeap() {
        ByteBuf buf = pooled.heapBuffer(n);
        return buf.release();
    }

    @Benchmark
    public boolean nettyPooledDirect() {
        ByteBuf buf = pooled.directBuffer(n);
        return buf.release();
    }
}
