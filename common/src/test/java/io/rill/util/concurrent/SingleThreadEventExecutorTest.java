package io.rill.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SingleThreadEventExecutorTest {

    private final ManualTicker ticker = new ManualTicker();
    private final CountingThreadFactory threads = new CountingThreadFactory();
    private final List<EventExecutor> toStop = new ArrayList<>();

    @AfterEach
    void stopExecutors() throws Exception {
        for (EventExecutor e : toStop) {
            e.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            assertTrue(e.terminationFuture().await(10, TimeUnit.SECONDS), "executor did not terminate: " + e);
        }
    }

    private DefaultEventExecutor newExecutor() {
        DefaultEventExecutor e = new DefaultEventExecutor(null, threads, ticker);
        toStop.add(e);
        return e;
    }

    /** Returns once every task queued before it, and every scheduled task already due, has run. */
    private static void flush(EventExecutor e) throws Exception {
        e.submit(() -> { }).get(5, TimeUnit.SECONDS);
    }

    @Test
    void startsItsThreadLazilyAndRunsTasksInOrderOnIt() throws Exception {
        DefaultEventExecutor e = newExecutor();
        assertEquals(0, threads.created.get());
        List<Integer> order = new ArrayList<>();
        List<Thread> seen = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int n = i;
            e.execute(() -> {
                order.add(n);
                seen.add(Thread.currentThread());
            });
        }
        flush(e);
        assertEquals(1, threads.created.get());
        for (int i = 0; i < 100; i++) {
            assertEquals(i, order.get(i));
            assertSame(seen.get(0), seen.get(i));
        }
        assertTrue(e.submit(() -> e.inEventLoop()).get(5, TimeUnit.SECONDS));
        assertFalse(e.inEventLoop());
    }

    @Test
    void currentExecutorIsTheLoopOnItsOwnThreadAndNullElsewhere() throws Exception {
        DefaultEventExecutor e = newExecutor();
        DefaultEventExecutor other = newExecutor();
        assertSame(e, e.submit(SingleThreadEventExecutor::currentExecutor).get(5, TimeUnit.SECONDS));
        assertSame(other, other.submit(SingleThreadEventExecutor::currentExecutor).get(5, TimeUnit.SECONDS));
        assertEquals(null, SingleThreadEventExecutor.currentExecutor());
    }

    @Test
    void loopSurvivesATaskThatThrows() throws Exception {
        DefaultEventExecutor e = newExecutor();
        e.execute(() -> {
            throw new IllegalStateException("task failure (expected by test)");
        });
        assertEquals("still alive", e.submit(() -> "still alive").get(5, TimeUnit.SECONDS));
        Future<?> failing = e.submit(() -> {
            throw new IllegalArgumentException("in a future");
        });
        assertInstanceOf(IllegalArgumentException.class,
                assertThrows(ExecutionException.class, () -> failing.get(5, TimeUnit.SECONDS)).getCause());
    }

    @Test
    void scheduledTaskRunsOnlyOnceItsDelayHasPassed() throws Exception {
        DefaultEventExecutor e = newExecutor();
        ScheduledFuture<String> f = e.schedule(() -> "ran", 10, TimeUnit.MILLISECONDS);
        flush(e);
        ticker.advance(9, TimeUnit.MILLISECONDS);
        flush(e);
        assertFalse(f.isDone());
        assertEquals(1, f.getDelay(TimeUnit.MILLISECONDS));
        ticker.advance(1, TimeUnit.MILLISECONDS);
        assertEquals("ran", f.get(5, TimeUnit.SECONDS));
    }

    @Test
    void scheduledTasksRunInDeadlineOrderThenSubmissionOrder() throws Exception {
        DefaultEventExecutor e = newExecutor();
        List<String> order = new ArrayList<>();
        List<ScheduledFuture<?>> all = List.of(
                e.schedule(() -> order.add("c@30"), 30, TimeUnit.MILLISECONDS),
                e.schedule(() -> order.add("a@10"), 10, TimeUnit.MILLISECONDS),
                e.schedule(() -> order.add("b1@20"), 20, TimeUnit.MILLISECONDS),
                e.schedule(() -> order.add("b2@20"), 20, TimeUnit.MILLISECONDS));
        flush(e);
        ticker.advance(30, TimeUnit.MILLISECONDS);
        // Await the tasks themselves: a no-op submitted now may run in the loop's current turn,
        // before the turn that picks up the tasks whose deadline the advance just passed.
        for (ScheduledFuture<?> f : all) {
            f.get(5, TimeUnit.SECONDS);
        }
        assertEquals(List.of("a@10", "b1@20", "b2@20", "c@30"), e.submit(() -> List.copyOf(order)).get());
    }

    @Test
    void cancelledScheduledTaskNeverRunsWhetherCancelledInsideOrOutsideTheLoop() throws Exception {
        DefaultEventExecutor e = newExecutor();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> outside = e.schedule(runs::incrementAndGet, 5, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> inside = e.schedule(runs::incrementAndGet, 5, TimeUnit.MILLISECONDS);
        flush(e);
        assertTrue(outside.cancel(false));
        assertTrue(e.submit(() -> inside.cancel(false)).get(5, TimeUnit.SECONDS));
        ticker.advance(10, TimeUnit.MILLISECONDS);
        flush(e);
        assertEquals(0, runs.get());
        assertTrue(outside.isCancelled());
        assertTrue(inside.isCancelled());
    }

    @Test
    void fixedRateKeepsTheScheduleWhileFixedDelayCountsFromTheEndOfEachRun() throws Exception {
        DefaultEventExecutor e = newExecutor();
        BlockingQueue<Long> rateRuns = new LinkedBlockingQueue<>();
        BlockingQueue<Long> delayRuns = new LinkedBlockingQueue<>();
        // Each run "takes" 3 ms by moving the clock.
        ScheduledFuture<?> rate = e.scheduleAtFixedRate(() -> {
            rateRuns.add(TimeUnit.NANOSECONDS.toMillis(ticker.nanoTime()));
            ticker.advance(3, TimeUnit.MILLISECONDS);
        }, 10, 10, TimeUnit.MILLISECONDS);
        flush(e);
        ticker.advance(10, TimeUnit.MILLISECONDS);
        assertEquals(10L, rateRuns.poll(5, TimeUnit.SECONDS));
        flush(e); // the run has moved the clock to 13 and rescheduled itself
        ticker.advance(7, TimeUnit.MILLISECONDS); // now 20: the next fixed-rate slot
        assertEquals(20L, rateRuns.poll(5, TimeUnit.SECONDS));
        rate.cancel(false);
        flush(e); // the second run has moved the clock to 23 by now

        long base = TimeUnit.NANOSECONDS.toMillis(ticker.nanoTime()); // 23
        ScheduledFuture<?> delay = e.scheduleWithFixedDelay(() -> {
            delayRuns.add(TimeUnit.NANOSECONDS.toMillis(ticker.nanoTime()) - base);
            ticker.advance(3, TimeUnit.MILLISECONDS);
        }, 10, 10, TimeUnit.MILLISECONDS);
        flush(e);
        ticker.advance(10, TimeUnit.MILLISECONDS);
        assertEquals(10L, delayRuns.poll(5, TimeUnit.SECONDS));
        flush(e); // the next deadline is taken when the run ends: let it end before moving the clock
        ticker.advance(7, TimeUnit.MILLISECONDS); // 10 after the first run started, 7 after it ended
        flush(e);
        assertTrue(delayRuns.isEmpty());
        ticker.advance(3, TimeUnit.MILLISECONDS);
        assertEquals(23L, delayRuns.poll(5, TimeUnit.SECONDS));
        delay.cancel(false);
        assertFalse(rate.isSuccess());
    }

    @Test
    void periodicTaskThatThrowsStopsAndFailsItsFuture() throws Exception {
        DefaultEventExecutor e = newExecutor();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 2) {
                throw new IllegalStateException("second run fails");
            }
        }, 1, 1, TimeUnit.MILLISECONDS);
        for (int i = 0; i < 5; i++) {
            ticker.advance(1, TimeUnit.MILLISECONDS);
            flush(e);
        }
        assertTrue(f.await(5, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, f.cause());
        assertEquals(2, runs.get());
    }

    @Test
    void gracefulShutdownRunsTasksDuringTheQuietPeriodThenRejects() throws Exception {
        DefaultEventExecutor e = newExecutor();
        flush(e);
        Future<?> termination = e.shutdownGracefully(2, 15, TimeUnit.SECONDS);
        assertTrue(e.isShuttingDown());
        assertFalse(e.isShutdown());
        assertEquals("late", e.submit(() -> "late").get(5, TimeUnit.SECONDS));
        ticker.advance(1, TimeUnit.SECONDS);
        assertFalse(termination.await(50, TimeUnit.MILLISECONDS), "terminated inside the quiet period");
        ticker.advance(2, TimeUnit.SECONDS);
        assertTrue(termination.await(5, TimeUnit.SECONDS));
        assertTrue(e.isTerminated());
        RejectedExecutionException rejected =
                assertThrows(RejectedExecutionException.class, () -> e.execute(() -> { }));
        assertTrue(rejected.getMessage().contains("shut down"), rejected.getMessage());
        assertSame(termination, e.shutdownGracefully());
    }

    @Test
    void gracefulShutdownEndsAtTheTimeoutEvenIfTasksKeepComing() throws Exception {
        DefaultEventExecutor e = newExecutor();
        flush(e);
        Future<?> termination = e.shutdownGracefully(10, 15, TimeUnit.SECONDS);
        for (int i = 0; i < 3; i++) {
            ticker.advance(4, TimeUnit.SECONDS);
            try {
                e.submit(() -> { }).get(5, TimeUnit.SECONDS);
            } catch (RejectedExecutionException ignored) {
                break; // the timeout may land between two submissions
            }
        }
        ticker.advance(4, TimeUnit.SECONDS); // 16 s after the start: past the 15 s timeout
        assertTrue(termination.await(5, TimeUnit.SECONDS));
    }

    @Test
    void shutdownCancelsScheduledTasks() throws Exception {
        DefaultEventExecutor e = newExecutor();
        ScheduledFuture<?> f = e.schedule(() -> { }, 1, TimeUnit.HOURS);
        flush(e);
        e.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        assertTrue(f.await(5, TimeUnit.SECONDS));
        assertTrue(f.isCancelled());
    }

    @Test
    void neverStartedExecutorShutsDownCleanly() throws Exception {
        DefaultEventExecutor e = newExecutor();
        assertTrue(e.shutdownGracefully(0, 0, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS));
        assertTrue(e.isTerminated());
        assertThrows(RejectedExecutionException.class, () -> e.execute(() -> { }));
    }

    @Test
    void awaitingOwnTerminationFromTheLoopIsRefused() throws Exception {
        DefaultEventExecutor e = newExecutor();
        Future<Boolean> f = e.submit(() -> e.awaitTermination(1, TimeUnit.SECONDS));
        assertInstanceOf(BlockingOperationException.class,
                assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS)).getCause());
    }

    @Test
    void fullTaskQueueRejectsWithAClearMessage() throws Exception {
        BoundedExecutor e = new BoundedExecutor(threads, 4);
        toStop.add(e);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        e.execute(() -> {
            blocked.countDown();
            awaitLatch(release);
        });
        assertTrue(blocked.await(5, TimeUnit.SECONDS));
        CountDownLatch drained = new CountDownLatch(4);
        for (int i = 0; i < 4; i++) {
            e.execute(drained::countDown);
        }
        RejectedExecutionException full = assertThrows(RejectedExecutionException.class, () -> e.execute(() -> { }));
        assertTrue(full.getMessage().contains("task queue full"), full.getMessage());
        assertEquals(4, e.pendingTasks());
        release.countDown();
        assertTrue(drained.await(5, TimeUnit.SECONDS));
    }

    @Test
    void noWakeUpIsLostUnderManyProducers() throws Exception {
        DefaultEventExecutor e = new DefaultEventExecutor(null, threads, Ticker.systemTicker());
        toStop.add(e);
        int producers = 4;
        int perProducer = 20_000;
        CountDownLatch all = new CountDownLatch(producers * perProducer);
        List<Thread> started = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            Thread t = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    e.execute(all::countDown);
                    if ((i & 255) == 0) {
                        Thread.yield(); // let the loop drain and fall asleep now and then
                    }
                }
            });
            t.start();
            started.add(t);
        }
        for (Thread t : started) {
            t.join(10_000);
        }
        assertTrue(all.await(10, TimeUnit.SECONDS), "tasks left: " + all.getCount());
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class BoundedExecutor extends SingleThreadEventExecutor {
        BoundedExecutor(ThreadFactory threads, int maxPending) {
            super(null, threads, Ticker.systemTicker(), maxPending);
        }

        @Override
        protected void run() {
            while (!confirmShutdown()) {
                if (!runAllTasks()) {
                    waitForWork();
                }
            }
        }
    }

    private static final class CountingThreadFactory implements ThreadFactory {
        final AtomicInteger created = new AtomicInteger();
        final DefaultThreadFactory delegate = new DefaultThreadFactory("stee-test", true);

        @Override
        public Thread newThread(Runnable r) {
            created.incrementAndGet();
            return delegate.newThread(r);
        }
    }
}
