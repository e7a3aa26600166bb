package io.rill.microbench.buffer;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.ByteProcessor;
import io.rill.buffer.CompositeByteBuf;
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.buffer.Unpooled;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Accessor costs on a 4 KiB buffer: setLong+getLong over every 8-byte slot (heap, direct, and a
 * plain {@code byte[]} through a VarHandle as the baseline), composite read/write,
 * forEachByte against an indexed getByte loop, and UTF-8 writes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Drill.leakDetection.level=DISABLED")
public class AccessBenchmark {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final int SIZE = 4096;

    byte[] array;
    ByteBuf heap;
    ByteBuf direct;
    CompositeByteBuf composite;
    ByteBuf utf8Target;
    String text = "Hello, world! Grüße aus Zürich — 你好 " .repeat(8);

    @Setup
    public void setup() {
        array = new byte[SIZE];
        heap = PooledByteBufAllocator.DEFAULT.heapBuffer(SIZE);
        direct = PooledByteBufAllocator.DEFAULT.directBuffer(SIZE);
        heap.writeZero(SIZE);
        direct.writeZero(SIZE);
        heap.setByte(SIZE - 1, '\n');
        composite = Unpooled.compositeBuffer();
        for (int i = 0; i < 4; i++) {
            composite.addComponent(true, Unpooled.directBuffer(SIZE / 4).writeZero(SIZE / 4));
        }
        utf8Target = PooledByteBufAllocator.DEFAULT.heapBuffer(4096);
    }

    @TearDown
    public void tearDown() {
        heap.release();
        direct.release();
        composite.release();
        utf8Target.release();
    }

    @Benchmark
    public long arrayVarHandleSetGetLong() {
        byte[] a = array;
        long sum = 0;
        for (int i = 0; i < SIZE; i += 8) {
            LONG.set(a, i, (long) i);
            sum += (long) LONG.get(a, i);
        }
        return sum;
    }

    @Benchmark
    public long heapSetGetLong() {
        ByteBuf b = heap;
        long sum = 0;
        for (int i = 0; i < SIZE; i += 8) {
            b.setLong(i, i);
            sum += b.getLong(i);
        }
        return sum;
    }

    @Benchmark
    public long directSetGetLong() {
        ByteBuf b = direct;
        long sum = 0;
        for (int i = 0; i < SIZE; i += 8) {
            b.setLong(i, i);
            sum += b.getLong(i);
        }
        return sum;
    }

    @Benchmark
    public long compositeWriteRead() {
        CompositeByteBuf b = composite;
        b.clear();
        for (int i = 0; i < SIZE; i += 8) {
            b.writeLong(i);
        }
        long sum = 0;
        while (b.isReadable()) {
            sum += b.readLong();
        }
        return sum;
    }

    @Benchmark
    public int forEachByteFindLf() {
        return heap.forEachByte(ByteProcessor.FIND_LF);
    }

    @Benchmark
    public int indexedLoopFindLf() {
        ByteBuf b = heap;
        for (int i = b.readerIndex(), end = b.writerIndex(); i < end; i++) {
            if (b.getByte(i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    @Benchmark
    public int writeUtf8() {
        utf8Target.clear();
        return ByteBufUtil.writeUtf8(utf8Target, text);
    }
}
