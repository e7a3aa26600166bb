package io.rill.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FastThreadLocalTest {

    @AfterEach
    void cleanUpTestThread() {
        FastThreadLocal.removeAll();
    }

    @Test
    void keepsValuesPerThreadOnFastThreadLocalThreads() throws Exception {
        assertEquals(List.of("a", "b"), List.of(
                runOn(FastThreadLocalThread::new, () -> setAndGet("a")),
                runOn(FastThreadLocalThread::new, () -> setAndGet("b"))));
    }

    @Test
    void keepsValuesPerThreadOnPlainThreads() throws Exception {
        assertEquals("plain", runOn(Thread::new, () -> setAndGet("plain")));
        assertEquals("main", setAndGet("main"));
    }

    @Test
    void initialisesOnceOnFirstGetAndCountsAsSet() {
        AtomicInteger calls = new AtomicInteger();
        FastThreadLocal<Integer> local = new FastThreadLocal<>() {
            @Override
            protected Integer initialValue() {
                return calls.incrementAndGet();
            }
        };
        assertFalse(local.isSet());
        assertEquals(1, local.get());
        assertEquals(1, local.get());
        assertTrue(local.isSet());
        local.remove();
        assertFalse(local.isSet());
        assertEquals(2, local.get());
    }

    @Test
    void storesNullAsAValueDistinctFromUnset() {
        FastThreadLocal<String> local = new FastThreadLocal<>() {
            @Override
            protected String initialValue() {
                return "initial";
            }
        };
        local.set(null);
        assertTrue(local.isSet());
        assertNull(local.get());
    }

    @Test
    void removeCallsOnRemovalWithTheOldValueOnlyWhenSet() {
        List<String> removed = new ArrayList<>();
        FastThreadLocal<String> local = recording(removed);
        local.remove();
        assertEquals(List.of(), removed);
        local.set("x");
        local.remove();
        assertEquals(List.of("x"), removed);
    }

    @Test
    void removeAllRemovesEveryValueAndCallsOnRemovalForEach() throws Exception {
        List<String> removed = new ArrayList<>();
        FastThreadLocal<String> first = recording(removed);
        FastThreadLocal<String> second = recording(removed);
        FastThreadLocal<String> unset = recording(removed);
        int sizes = runOn(FastThreadLocalThread::new, () -> {
            first.set("1");
            second.set("2");
            int before = FastThreadLocal.size();
            FastThreadLocal.removeAll();
            return before * 10 + FastThreadLocal.size();
        });
        assertEquals(20, sizes);
        assertEquals(List.of("1", "2"), removed);
        assertFalse(unset.isSet());
    }

    @Test
    void removeAllKeepsGoingWhenOnRemovalThrowsAndRethrowsTheFirstFailure() {
        List<String> removed = new ArrayList<>();
        FastThreadLocal<String> failing = new FastThreadLocal<>() {
            @Override
            protected void onRemoval(String value) {
                throw new IllegalStateException("boom " + value);
            }
        };
        FastThreadLocal<String> fine = recording(removed);
        failing.set("f");
        fine.set("ok");
        IllegalStateException e = assertThrows(IllegalStateException.class, FastThreadLocal::removeAll);
        assertEquals("boom f", e.getMessage());
        assertEquals(List.of("ok"), removed);
        assertEquals(0, FastThreadLocal.size());
    }

    @Test
    void growsPastTheInitialCapacity() throws Exception {
        List<FastThreadLocal<Integer>> locals = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            locals.add(new FastThreadLocal<>());
        }
        int sum = runOn(FastThreadLocalThread::new, () -> {
            for (int i = 0; i < locals.size(); i++) {
                locals.get(i).set(i);
            }
            int total = 0;
            for (FastThreadLocal<Integer> local : locals) {
                total += local.get();
            }
            return total;
        });
        assertEquals(99 * 100 / 2, sum);
    }

    @Test
    void fastThreadLocalThreadCleansUpWhenItsTaskReturns() throws Exception {
        List<String> removed = new ArrayList<>();
        FastThreadLocal<String> local = recording(removed);
        Thread thread = new FastThreadLocalThread(() -> local.set("done"));
        assertTrue(FastThreadLocalThread.willCleanupFastThreadLocals(thread));
        thread.start();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(List.of("done"), removed);

        assertFalse(FastThreadLocalThread.willCleanupFastThreadLocals(new Thread(() -> { })));
        assertFalse(FastThreadLocalThread.willCleanupFastThreadLocals(new FastThreadLocalThread(null)));
    }

    @Test
    void runWithCleanupRemovesValuesEvenWhenTheTaskThrows() {
        List<String> removed = new ArrayList<>();
        FastThreadLocal<String> local = recording(removed);
        Runnable task = FastThreadLocal.runWithCleanup(() -> {
            local.set("v");
            throw new IllegalArgumentException("task failed");
        });
        assertSame(task, FastThreadLocal.runWithCleanup(task));
        assertThrows(IllegalArgumentException.class, task::run);
        assertEquals(List.of("v"), removed);
        assertEquals(0, FastThreadLocal.size());
    }

    private static final FastThreadLocal<String> shared = new FastThreadLocal<>();

    private static String setAndGet(String value) {
        assertFalse(shared.isSet());
        shared.set(value);
        Thread.yield();
        String read = shared.get();
        shared.remove();
        return read;
    }

    private static FastThreadLocal<String> recording(List<String> removed) {
        return new FastThreadLocal<>() {
            @Override
            protected void onRemoval(String value) {
                removed.add(value);
            }
        };
    }

    private interface Body<R> {
        R run() throws Exception;
    }

    private static <R> R runOn(Function<Runnable, Thread> threads, Body<R> body) throws Exception {
        CompletableFuture<R> result = new CompletableFuture<>();
        Thread thread = threads.apply(() -> {
            try {
                result.complete(body.run());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        thread.start();
        return result.get(10, TimeUnit.SECONDS);
    }
}
