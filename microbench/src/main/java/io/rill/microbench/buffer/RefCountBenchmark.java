package io.rill.microbench.buffer;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** retain()+release() on one buffer: by one thread, and by two threads on the same buffer. */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Drill.leakDetection.level=DISABLED")
public class RefCountBenchmark {

    ByteBuf buf;

    @Setup
    public void setup() {
        buf = Unpooled.buffer(16);
    }

    @TearDown
    public void tearDown() {
        buf.release();
    }

    @Benchmark
    @Group("uncontended")
    @GroupThreads(1)
    public boolean retainReleaseUncontended() {
        return buf.retain().release();
    }

    @Benchmark
    @Group("contended")
    @GroupThreads(2)
    public boolean retainReleaseContended() {
        return buf.retain().release();
    }
}
