package io.rill.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

class ScheduledTaskQueueTest {

    private final DefaultEventExecutor owner = new DefaultEventExecutor(null, new DefaultThreadFactory("heap", true),
            new ManualTicker());
    private long sequence;

    private ScheduledFutureTask<Void> task(long deadline) {
        return new ScheduledFutureTask<>(owner, () -> null, deadline, 0, sequence++);
    }

    @Test
    void pollsInDeadlineOrderThenInsertionOrder() {
        ScheduledTaskQueue q = new ScheduledTaskQueue();
        ScheduledFutureTask<Void> late = task(30);
        ScheduledFutureTask<Void> firstOf20 = task(20);
        ScheduledFutureTask<Void> early = task(10);
        ScheduledFutureTask<Void> secondOf20 = task(20);
        for (ScheduledFutureTask<Void> t : List.of(late, firstOf20, early, secondOf20)) {
            q.add(t);
        }
        assertSame(early, q.poll());
        assertSame(firstOf20, q.poll());
        assertSame(secondOf20, q.poll());
        assertSame(late, q.poll());
        assertNull(q.poll());
    }

    @Test
    void removesFromTheMiddleAndKeepsTheHeapOrderedAgainstAReference() {
        Random random = new Random(42);
        ScheduledTaskQueue q = new ScheduledTaskQueue();
        TreeSet<ScheduledFutureTask<?>> reference = new TreeSet<>(Comparator.naturalOrder());
        List<ScheduledFutureTask<?>> live = new ArrayList<>();
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            if (op < 5 || live.isEmpty()) {
                ScheduledFutureTask<Void> t = task(random.nextInt(1000));
                q.add(t);
                reference.add(t);
                live.add(t);
            } else if (op < 8) {
                ScheduledFutureTask<?> t = live.remove(random.nextInt(live.size()));
                assertTrue(q.remove(t));
                assertFalse(q.remove(t), "removed twice");
                reference.remove(t);
            } else {
                ScheduledFutureTask<?> expected = reference.pollFirst();
                assertSame(expected, q.poll());
                live.remove(expected);
            }
            assertEquals(reference.size(), q.size());
            assertSame(reference.isEmpty() ? null : reference.first(), q.peek());
        }
    }

    @Test
    void refusesToQueueATaskTwice() {
        ScheduledTaskQueue q = new ScheduledTaskQueue();
        ScheduledFutureTask<Void> t = task(1);
        q.add(t);
        assertThrows(IllegalStateException.class, () -> q.add(t));
    }

    @Test
    void drainEmptiesAndForgetsIndexes() {
        ScheduledTaskQueue q = new ScheduledTaskQueue();
        ScheduledFutureTask<Void> a = task(1);
        ScheduledFutureTask<Void> b = task(2);
        q.add(a);
        q.add(b);
        assertEquals(2, q.drain().length);
        assertTrue(q.isEmpty());
        assertFalse(q.remove(a));
        q.add(a); // may be queued again once drained
        assertEquals(1, q.size());
    }
}
