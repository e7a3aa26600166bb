package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HashedWheelTimerTest {

    private static final long AWAIT_SECONDS = 10;

    private HashedWheelTimer timer = new HashedWheelTimer(1, TimeUnit.MILLISECONDS, 8);

    @AfterEach
    void stopTimer() {
        timer.stop();
    }

    @Test
    void runsTimeoutsInDeadlineOrderAndNeverEarly() throws Exception {
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(3);
        // 20 ms apart, so a slow scheduling loop on a busy machine can't reorder the deadlines.
        for (long delay : new long[] {50, 10, 30}) {
            long scheduledAt = System.nanoTime();
            timer.newTimeout(t -> {
                long waited = System.nanoTime() - scheduledAt;
                order.add(delay + (waited >= TimeUnit.MILLISECONDS.toNanos(delay) ? "" : " EARLY"));
                done.countDown();
            }, delay, TimeUnit.MILLISECONDS);
        }
        assertTrue(done.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of("10", "30", "50"), List.copyOf(order));
    }

    @Test
    void waitsSeveralTurnsOfASmallWheel() throws Exception {
        CompletableFuture<Long> waited = new CompletableFuture<>();
        long scheduledAt = System.nanoTime();
        timer.newTimeout(t -> waited.complete(System.nanoTime() - scheduledAt), 35, TimeUnit.MILLISECONDS);
        assertTrue(waited.get(AWAIT_SECONDS, TimeUnit.SECONDS) >= TimeUnit.MILLISECONDS.toNanos(35));
    }

    @Test
    void runsZeroAndNegativeDelaysOnTheNextTick() throws Exception {
        CountDownLatch done = new CountDownLatch(2);
        timer.newTimeout(t -> done.countDown(), 0, TimeUnit.MILLISECONDS);
        timer.newTimeout(t -> done.countDown(), -5, TimeUnit.SECONDS);
        assertTrue(done.await(AWAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void cancelledTimeoutNeverRunsAndIsForgotten() throws Exception {
        AtomicBoolean cancelledRan = new AtomicBoolean();
        Timeout cancelled = timer.newTimeout(t -> cancelledRan.set(true), 10, TimeUnit.MILLISECONDS);
        assertTrue(cancelled.cancel());
        assertFalse(cancelled.cancel());
        assertTrue(cancelled.isCancelled());

        CompletableFuture<Long> pendingSeenByLater = new CompletableFuture<>();
        Timeout later = timer.newTimeout(t -> pendingSeenByLater.complete(timer.pendingTimeouts()),
                20, TimeUnit.MILLISECONDS);
        assertEquals(0L, pendingSeenByLater.get(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertFalse(cancelledRan.get());
        assertTrue(later.isExpired());
        assertFalse(later.cancel());
    }

    @Test
    void cancelsTimeoutsAlreadyInTheWheel() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        Timeout far = timer.newTimeout(t -> ran.set(true), 1, TimeUnit.HOURS);
        CountDownLatch tick = new CountDownLatch(1);
        timer.newTimeout(t -> tick.countDown(), 1, TimeUnit.MILLISECONDS);
        assertTrue(tick.await(AWAIT_SECONDS, TimeUnit.SECONDS)); // 'far' is in a bucket by now
        assertTrue(far.cancel());

        CountDownLatch afterCancel = new CountDownLatch(1);
        timer.newTimeout(t -> afterCancel.countDown(), 1, TimeUnit.MILLISECONDS);
        assertTrue(afterCancel.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(Set.of(), timer.stop());
        assertFalse(ran.get());
    }

    @Test
    void stopReturnsTheTimeoutsThatDidNotRun() {
        Timeout kept = timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        Timeout cancelled = timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        cancelled.cancel();

        assertEquals(Set.of(kept), timer.stop());
        assertEquals(Set.of(), timer.stop());
        assertThrows(IllegalStateException.class, () -> timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS));
    }

    @Test
    void stoppingAnUnstartedTimerReturnsNothing() {
        assertEquals(Set.of(), timer.stop());
        assertThrows(IllegalStateException.class, () -> timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS));
    }

    @Test
    void rejectsTimeoutsBeyondMaxPending() {
        timer.stop();
        timer = new HashedWheelTimer(Thread::new, 10, TimeUnit.MILLISECONDS, 16, 2);
        timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> timer.newTimeout(t -> { }, 1, TimeUnit.HOURS));
        assertTrue(e.getMessage().contains("maxPendingTimeouts (2)"), e.getMessage());
        assertEquals(2, timer.pendingTimeouts());
    }

    @Test
    void refusesToStopFromItsOwnTask() throws Exception {
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        timer.newTimeout(t -> {
            try {
                t.timer().stop();
                failure.complete(null);
            } catch (Throwable e) {
                failure.complete(e);
            }
        }, 1, TimeUnit.MILLISECONDS);
        assertInstanceOf(IllegalStateException.class, failure.get(AWAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void keepsRunningAfterATaskThrows() throws Exception {
        CountDownLatch survived = new CountDownLatch(1);
        timer.newTimeout(t -> {
            throw new IllegalStateException("expected by the test");
        }, 1, TimeUnit.MILLISECONDS);
        timer.newTimeout(t -> survived.countDown(), 5, TimeUnit.MILLISECONDS);
        assertTrue(survived.await(AWAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void rejectsInvalidArguments() {
        assertThrows(IllegalArgumentException.class, () -> new HashedWheelTimer(0, TimeUnit.MILLISECONDS));
        assertThrows(IllegalArgumentException.class, () -> new HashedWheelTimer(1, TimeUnit.MILLISECONDS, 0));
        assertThrows(IllegalArgumentException.class, () -> new HashedWheelTimer(Long.MAX_VALUE, TimeUnit.DAYS, 4));
    }

    // ---------------------------------------------------------------- construction and newTimeout

    @Test
    void theWorkerThreadStartsWithTheFirstTimeoutNotWithTheTimer() throws Exception {
        List<Thread> made = new java.util.ArrayList<>();
        timer.stop();
        timer = new HashedWheelTimer(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            made.add(t);
            return t;
        }, 1, TimeUnit.MILLISECONDS, 8, 0);
        assertEquals(1, made.size());
        assertEquals(Thread.State.NEW, made.get(0).getState());
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> ran.countDown(), 1, TimeUnit.MILLISECONDS);
        assertTrue(ran.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, made.size(), "one worker for the timer's whole life");
    }

    @Test
    void aWorkerThatCannotStartLeavesTheTimerStoppedWithNothingPending() {
        timer.stop();
        Thread alreadyStarted = new Thread(() -> { });
        alreadyStarted.start();
        timer = new HashedWheelTimer(r -> alreadyStarted, 1, TimeUnit.MILLISECONDS, 8, 0);
        assertThrows(IllegalThreadStateException.class, () -> timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS));
        assertEquals(0, timer.pendingTimeouts());
        assertThrows(IllegalStateException.class, () -> timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS));
        assertEquals(0, timer.pendingTimeouts());
    }

    @Test
    void aRejectedTimeoutIsNotCountedAndRoomComesBackWhenOneRuns() throws Exception {
        timer.stop();
        timer = new HashedWheelTimer(Thread::new, 1, TimeUnit.MILLISECONDS, 8, 1);
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> ran.countDown(), 1, TimeUnit.MILLISECONDS);
        assertThrows(RejectedExecutionException.class, () -> timer.newTimeout(t -> { }, 1, TimeUnit.HOURS));
        assertTrue(ran.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        // The timeout stops counting before its task runs, so there is room again now.
        Timeout next = timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        assertEquals(1, timer.pendingTimeouts());
        next.cancel();
    }

    @Test
    void delaysTooLongForALongOfNanosecondsWaitForeverInsteadOfRunningAtOnce() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        timer.newTimeout(t -> ran.set(true), Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        timer.newTimeout(t -> ran.set(true), Long.MAX_VALUE, TimeUnit.DAYS);
        CountDownLatch later = new CountDownLatch(1);
        timer.newTimeout(t -> later.countDown(), 20, TimeUnit.MILLISECONDS);
        assertTrue(later.await(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertFalse(ran.get());
        assertEquals(2, timer.pendingTimeouts());
    }

    @Test
    void aTickBelowOneMillisecondStillRunsTimeoutsAndNeverEarly() throws Exception {
        timer.stop();
        timer = new HashedWheelTimer(Thread::new, 10, TimeUnit.MICROSECONDS, 3, 0);
        CompletableFuture<Long> waited = new CompletableFuture<>();
        long scheduledAt = System.nanoTime();
        timer.newTimeout(t -> waited.complete(System.nanoTime() - scheduledAt), 7, TimeUnit.MILLISECONDS);
        assertTrue(waited.get(AWAIT_SECONDS, TimeUnit.SECONDS) >= TimeUnit.MILLISECONDS.toNanos(7));
    }

    @Test
    void everyArgumentIsCheckedAndNamed() {
        assertEquals("threadFactory", assertThrows(NullPointerException.class,
                () -> new HashedWheelTimer(null, 1, TimeUnit.MILLISECONDS, 8, 0)).getMessage());
        for (long tick : new long[] {0, -1}) {
            assertThrows(IllegalArgumentException.class, () -> new HashedWheelTimer(tick, TimeUnit.MILLISECONDS));
        }
        for (int buckets : new int[] {0, -1, (1 << 30) + 1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new HashedWheelTimer(1, TimeUnit.MILLISECONDS, buckets));
            assertTrue(e.getMessage().contains("ticksPerWheel"), e.getMessage());
        }
        IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
                () -> new HashedWheelTimer(Thread::new, Long.MAX_VALUE / 4, TimeUnit.NANOSECONDS, 8, 0));
        assertTrue(overflow.getMessage().contains("overflow"), overflow.getMessage());
        assertEquals("task", assertThrows(NullPointerException.class,
                () -> timer.newTimeout(null, 1, TimeUnit.SECONDS)).getMessage());
        assertEquals("unit", assertThrows(NullPointerException.class,
                () -> timer.newTimeout(t -> { }, 1, null)).getMessage());
        assertEquals(0, timer.pendingTimeouts());
    }
}
