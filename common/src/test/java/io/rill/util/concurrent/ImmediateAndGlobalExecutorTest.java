package io.rill.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class ImmediateAndGlobalExecutorTest {

    @Test
    void immediateExecutorRunsOnTheCallerAndFlattensNestedTasks() {
        ImmediateEventExecutor e = ImmediateEventExecutor.INSTANCE;
        List<String> order = new ArrayList<>();
        e.execute(() -> {
            order.add("outer-start");
            e.execute(() -> order.add("nested"));
            order.add("outer-end");
        });
        assertEquals(List.of("outer-start", "outer-end", "nested"), order);
        assertTrue(e.inEventLoop());
        assertSame(Thread.currentThread(), e.submit(Thread::currentThread).getNow());
    }

    @Test
    void immediatePromisesMayBeAwaitedFromAnyThread() throws Exception {
        Promise<String> p = ImmediateEventExecutor.INSTANCE.newPromise();
        Thread completer = new Thread(() -> p.setSuccess("done"));
        completer.start();
        assertEquals("done", p.sync().getNow());
        completer.join(5000);
    }

    @Test
    void immediateExecutorDoesNotSchedule() {
        assertThrows(UnsupportedOperationException.class,
                () -> ImmediateEventExecutor.INSTANCE.schedule(() -> { }, 1, TimeUnit.SECONDS));
        assertFalse(ImmediateEventExecutor.INSTANCE.shutdownGracefully().isDone());
    }

    @Test
    void globalExecutorRunsTasksAndScheduledTasksOnADaemonThread() throws Exception {
        GlobalEventExecutor g = GlobalEventExecutor.INSTANCE;
        Thread t = g.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);
        assertTrue(t.isDaemon());
        assertTrue(t.getName().startsWith("globalEventExecutor-"), t.getName());
        assertEquals("later", g.schedule(() -> "later", 5, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS));
        assertFalse(g.shutdownGracefully().isDone());
    }

    @Test
    void globalExecutorThreadStopsWhenIdleAndRestartsOnDemand() throws Exception {
        GlobalEventExecutor g = GlobalEventExecutor.INSTANCE;
        AtomicReference<Thread> first = new AtomicReference<>();
        g.submit(() -> first.set(Thread.currentThread())).get(5, TimeUnit.SECONDS);
        first.get().join(10_000); // idles out after its one-second keep-alive
        assertFalse(first.get().isAlive());
        Thread second = g.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);
        assertTrue(second.isAlive() || second != first.get());
    }
}
