package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rill.util.concurrent.FastThreadLocal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ObjectPoolTest {

    static final class Pooled {
        final ObjectPool.Handle<Pooled> handle;

        Pooled(ObjectPool.Handle<Pooled> handle) {
            this.handle = handle;
        }

        void recycle() {
            handle.recycle(this);
        }
    }

    @AfterEach
    void dropThreadLocalPools() {
        FastThreadLocal.removeAll();
    }

    @Test
    void reusesAnObjectRecycledOnTheSameThread() {
        ObjectPool<Pooled> pool = ObjectPool.newPool(Pooled::new, 16, 16);
        Pooled first = pool.get();
        first.recycle();
        assertSame(first, pool.get());
        assertNotSame(first, pool.get());
    }

    @Test
    void throwsOnDoubleRecycle() {
        ObjectPool<Pooled> pool = ObjectPool.newPool(Pooled::new, 16, 16);
        Pooled object = pool.get();
        object.recycle();
        assertThrows(IllegalStateException.class, object::recycle);
    }

    @Test
    void rejectsRecyclingAnotherObjectThroughAHandle() {
        ObjectPool<Pooled> pool = ObjectPool.newPool(Pooled::new, 16, 16);
        Pooled a = pool.get();
        Pooled b = pool.get();
        assertThrows(IllegalArgumentException.class, () -> a.handle.recycle(b));
    }

    @Test
    void keepsAtMostMaxCapacityPerThreadAndDropsTheRest() {
        ObjectPool<Pooled> pool = ObjectPool.newPool(Pooled::new, 4, 4);
        List<Pooled> taken = takeAll(pool, 10);
        taken.forEach(Pooled::recycle);
        assertEquals(4, pool.localSize());

        Set<Pooled> reused = new HashSet<>(takeAll(pool, 10));
        reused.retainAll(taken);
        assertEquals(4, reused.size());
    }

    @Test
    void handsBackObjectsRecycledOnAnotherThread() throws Exception {
        ObjectPool<Pooled> pool = ObjectPool.newPool(Pooled::new, 64, 64);
        List<Pooled> taken = takeAll(pool, 8);
        onOtherThread(() -> taken.forEach(Pooled::recycle));

        Set<Pooled> reused = new HashSet<>(takeAll(pool, 8));
        assertEquals(new HashSet<>(taken), reused);
    }

    @Test
    void dropsCrossThreadRecyclesBeyondTheQueueBound() throws Exception {
        ObjectPool<Pooled> pool = ObjectPool.newPool(Pooled::new, 64, 3);
        List<Pooled> taken = takeAll(pool, 10);
        onOtherThread(() -> taken.forEach(Pooled::recycle));

        Set<Pooled> reused = new HashSet<>(takeAll(pool, 10));
        reused.retainAll(taken);
        assertEquals(3, reused.size());
    }

    @Test
    void doubleRecycleFromAnotherThreadAlsoThrows() throws Exception {
        ObjectPool<Pooled> pool = ObjectPool.newPool(Pooled::new, 64, 64);
        Pooled object = pool.get();
        object.recycle();
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        onOtherThread(() -> {
            try {
                object.recycle();
                failure.complete(null);
            } catch (Throwable t) {
                failure.complete(t);
            }
        });
        assertEquals(IllegalStateException.class, failure.get(10, TimeUnit.SECONDS).getClass());
    }

    @Test
    void createsFreshObjectsWhenCapacityIsZero() {
        ObjectPool<Pooled> pool = ObjectPool.newPool(Pooled::new, 0, 0);
        Pooled object = pool.get();
        object.recycle();
        assertNotSame(object, pool.get());
    }

    private static List<Pooled> takeAll(ObjectPool<Pooled> pool, int count) {
        List<Pooled> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            taken.add(pool.get());
        }
        return taken;
    }

    private static void onOtherThread(Runnable task) throws Exception {
        CompletableFuture<Void> done = CompletableFuture.runAsync(task, r -> new Thread(r).start());
        done.get(10, TimeUnit.SECONDS);
    }
}
