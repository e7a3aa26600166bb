package io.rill.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ExecutorGroupTest {

    @ParameterizedTest(name = "{0} executors")
    @ValueSource(ints = {1, 3, 4})
    void nextCyclesRoundRobinThroughEveryExecutor(int n) throws Exception {
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(n, new DefaultThreadFactory("rr", true));
        try {
            List<EventExecutor> all = new ArrayList<>();
            group.forEach(all::add);
            assertEquals(n, all.size());
            assertEquals(n, group.executorCount());
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < n; i++) {
                    assertSame(all.get(i), group.next());
                }
            }
            for (EventExecutor e : all) {
                assertSame(group, e.parent());
            }
        } finally {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void threadsAreNamedAfterThePoolAndAreFastThreadLocalThreads() throws Exception {
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(2);
        try {
            Set<String> names = new HashSet<>();
            for (EventExecutor e : group) {
                Thread t = e.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);
                assertTrue(t instanceof FastThreadLocalThread, t.getClass().getName());
                assertFalse(t.isDaemon());
                names.add(t.getName());
            }
            assertEquals(2, names.size());
            for (String name : names) {
                assertTrue(name.startsWith("defaultEventExecutorGroup-"), name);
            }
        } finally {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void shuttingDownTheGroupTerminatesEveryExecutorThenRejects() throws Exception {
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(3, new DefaultThreadFactory("sd", true));
        assertEquals(42, group.submit(() -> 42).get(5, TimeUnit.SECONDS));
        assertEquals("s", group.schedule(() -> "s", 1, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS));
        assertFalse(group.isShuttingDown());
        Future<?> termination = group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        assertTrue(group.isShuttingDown());
        assertTrue(termination.await(10, TimeUnit.SECONDS));
        assertTrue(group.isTerminated());
        assertTrue(group.awaitTermination(1, TimeUnit.SECONDS));
        assertThrows(RejectedExecutionException.class, () -> group.execute(() -> { }));
    }

    @Test
    void invalidArgumentsAreRefusedWithTheirValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DefaultEventExecutorGroup(-1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        DefaultEventExecutor executor = new DefaultEventExecutor();
        try {
            assertThrows(IllegalArgumentException.class, () -> executor.shutdownGracefully(5, 1, TimeUnit.SECONDS));
            assertThrows(IllegalArgumentException.class,
                    () -> executor.scheduleAtFixedRate(() -> { }, 0, 0, TimeUnit.SECONDS));
        } finally {
            executor.shutdownGracefully(0, 0, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void poolNamesComeFromTheClassName() {
        assertEquals("defaultEventExecutorGroup", DefaultThreadFactory.toPoolName(DefaultEventExecutorGroup.class));
        assertEquals("executorGroupTest", DefaultThreadFactory.toPoolName(new Object() { }.getClass()
                .getEnclosingClass()));
    }
}
