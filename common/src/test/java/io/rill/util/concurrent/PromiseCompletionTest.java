package io.rill.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DefaultPromise's completion contract: one outcome wins, and winning wakes every thread blocked
 * in any kind of wait and notifies every listener once. Waiters are observed parked (their thread
 * state) before the promise completes, so a wake-up that is lost shows up as a timeout here.
 */
class PromiseCompletionTest {

    private static final long SECONDS = 10;
    private static DefaultEventExecutor executor;

    @BeforeAll
    static void startExecutor() {
        executor = new DefaultEventExecutor();
    }

    @AfterAll
    static void stopExecutor() throws Exception {
        assertTrue(executor.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(SECONDS, TimeUnit.SECONDS));
    }

    /** One way of waiting; returns what the waiter saw (a value, or the exception it got). */
    private static final List<Function<Promise<String>, Object>> WAYS = List.of(
            p -> call(() -> p.await().getNow()),
            p -> call(() -> p.await(1, TimeUnit.HOURS) ? p.getNow() : "timed out"),
            p -> p.awaitUninterruptibly().getNow(),
            p -> p.awaitUninterruptibly(1, TimeUnit.HOURS) ? p.getNow() : "timed out",
            p -> call(p::get),
            p -> call(() -> p.get(1, TimeUnit.HOURS)),
            p -> call(() -> p.sync().getNow()),
            p -> call(() -> p.syncUninterruptibly().getNow()));

    interface Call {
        Object run() throws Throwable;
    }

    private static Object call(Call call) {
        try {
            return call.run();
        } catch (Throwable t) {
            return t;
        }
    }

    /** Starts one thread per way of waiting and returns once every one of them is parked. */
    private static List<CompletableFuture<Object>> parkedWaiters(Promise<String> promise) {
        List<CompletableFuture<Object>> seen = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (Function<Promise<String>, Object> way : WAYS) {
            CompletableFuture<Object> result = new CompletableFuture<>();
            Thread t = new Thread(() -> result.complete(way.apply(promise)), "waiter-" + seen.size());
            t.setDaemon(true);
            t.start();
            seen.add(result);
            threads.add(t);
        }
        for (Thread t : threads) {
            awaitParked(t);
        }
        return seen;
    }

    private static void awaitParked(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        Thread.State state;
        while ((state = t.getState()) != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, t.getName() + " never parked: " + state);
            Thread.onSpinWait();
        }
    }

    private static List<Object> outcomes(List<CompletableFuture<Object>> waiters) throws Exception {
        List<Object> out = new ArrayList<>();
        for (CompletableFuture<Object> w : waiters) {
            out.add(w.get(SECONDS, TimeUnit.SECONDS));
        }
        return out;
    }

    @Test
    void successWakesEveryKindOfWaiterWithTheValue() throws Exception {
        Promise<String> promise = executor.newPromise();
        List<CompletableFuture<Object>> waiters = parkedWaiters(promise);
        assertTrue(promise.trySuccess("v"));
        assertEquals(List.of("v", "v", "v", "v", "v", "v", "v", "v"), outcomes(waiters));
    }

    @Test
    void failureWakesEveryKindOfWaiterWithTheCause() throws Exception {
        Promise<String> promise = executor.newPromise();
        List<CompletableFuture<Object>> waiters = parkedWaiters(promise);
        IOException cause = new IOException("broken");
        assertTrue(promise.tryFailure(cause));
        List<Object> seen = outcomes(waiters);
        assertNull(seen.get(0), "await returns; the value is absent");
        assertNull(seen.get(3));
        assertSame(cause, ((Throwable) seen.get(4)).getCause(), "get wraps the cause");
        assertSame(cause, seen.get(6), "sync rethrows it as it is");
        assertSame(cause, seen.get(7));
    }

    @Test
    void cancellationWakesEveryKindOfWaiter() throws Exception {
        Promise<String> promise = executor.newPromise();
        List<CompletableFuture<Object>> waiters = parkedWaiters(promise);
        assertTrue(promise.cancel(false));
        List<Object> seen = outcomes(waiters);
        assertInstanceOf(CancellationException.class, seen.get(4), "get throws the cancellation itself");
        assertInstanceOf(CancellationException.class, seen.get(5));
        assertInstanceOf(CancellationException.class, seen.get(6));
    }

    @Test
    void anUncancellablePromiseStillCompletesAndWakesItsWaiters() throws Exception {
        Promise<String> promise = executor.newPromise();
        assertTrue(promise.setUncancellable());
        List<CompletableFuture<Object>> waiters = parkedWaiters(promise);
        assertFalse(promise.cancel(false));
        assertFalse(promise.isDone());
        assertTrue(promise.trySuccess("late"));
        assertEquals("late", outcomes(waiters).get(0));
    }

    @Test
    void ofManyRacingCompletersExactlyOneWinsAndListenersHearItOnce() throws Exception {
        for (int round = 0; round < 200; round++) {
            Promise<String> promise = executor.newPromise();
            AtomicInteger notified = new AtomicInteger();
            CountDownLatch heard = new CountDownLatch(1);
            promise.addListener(f -> {
                notified.incrementAndGet();
                heard.countDown();
            });
            int racers = 4;
            CyclicBarrier start = new CyclicBarrier(racers);
            AtomicInteger wins = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                int kind = i;
                Thread t = new Thread(() -> {
                    call(() -> start.await(SECONDS, TimeUnit.SECONDS));
                    boolean won = switch (kind) {
                        case 0 -> promise.trySuccess("a");
                        case 1 -> promise.trySuccess("b");
                        case 2 -> promise.tryFailure(new IOException("c"));
                        default -> promise.cancel(false);
                    };
                    if (won) {
                        wins.incrementAndGet();
                    }
                });
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(SECONDS));
            }
            assertEquals(1, wins.get(), "round " + round);
            assertTrue(heard.await(SECONDS, TimeUnit.SECONDS));
            assertTrue(promise.isDone());
            assertThrows(IllegalStateException.class, () -> promise.setSuccess("again"));
            assertEquals(1, notified.get(), "round " + round);
        }
    }

    @Test
    void awaitUninterruptiblyWaitsThroughAnInterruptAndKeepsTheFlag() throws Exception {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<Boolean> flagAfter = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            promise.awaitUninterruptibly();
            flagAfter.complete(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        awaitParked(waiter);
        waiter.interrupt();
        awaitParked(waiter); // parked again, still waiting
        assertFalse(flagAfter.isDone());
        promise.setSuccess("done");
        assertTrue(flagAfter.get(SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void anInterruptEndsAnInterruptibleWait() throws Exception {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<Object> seen = new CompletableFuture<>();
        Thread waiter = new Thread(() -> seen.complete(call(() -> promise.await(1, TimeUnit.HOURS))));
        waiter.start();
        awaitParked(waiter);
        waiter.interrupt();
        assertInstanceOf(InterruptedException.class, seen.get(SECONDS, TimeUnit.SECONDS));
        assertFalse(promise.isDone());
    }

    @Test
    void aTimedWaitOnAPendingPromiseReturnsFalseAtTheDeadline() throws Exception {
        Promise<String> promise = executor.newPromise();
        long start = System.nanoTime();
        assertFalse(promise.await(20, TimeUnit.MILLISECONDS));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20), "returned early");
        assertFalse(promise.awaitUninterruptibly(0, TimeUnit.MILLISECONDS));
        promise.setSuccess("x");
        assertTrue(promise.await(0, TimeUnit.MILLISECONDS), "a complete promise needs no time");
    }
}
