package io.rill.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DefaultPromiseTest {

    private static DefaultEventExecutor executor;

    @BeforeAll
    static void startExecutor() {
        executor = new DefaultEventExecutor();
    }

    @AfterAll
    static void stopExecutor() throws Exception {
        assertTrue(executor.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }

    @Test
    void notifiesListenersInOrderOfAdditionOnTheExecutorThread() throws Exception {
        Promise<String> promise = executor.newPromise();
        List<String> calls = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(3);
        for (String name : List.of("a", "b", "c")) {
            promise.addListener(f -> {
                assertTrue(executor.inEventLoop());
                calls.add(name + "=" + f.getNow());
                done.countDown();
            });
        }
        promise.setSuccess("x");
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("a=x", "b=x", "c=x"), calls);
    }

    @Test
    void listenerAddedAfterCompletionStillRuns() throws Exception {
        Promise<Integer> promise = executor.newPromise();
        promise.setSuccess(7);
        CompletableFuture<Integer> seen = new CompletableFuture<>();
        promise.addListener(f -> seen.complete(f.getNow()));
        assertEquals(7, seen.get(5, TimeUnit.SECONDS));
    }

    @Test
    void listenerAddedDuringNotificationRunsAfterTheOthers() throws Exception {
        Promise<Void> promise = executor.newPromise();
        List<String> calls = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        promise.addListener(f -> {
            calls.add("first");
            promise.addListener(g -> {
                calls.add("late");
                done.countDown();
            });
        });
        promise.addListener(f -> calls.add("second"));
        promise.setSuccess(null);
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("first", "second", "late"), calls);
    }

    @Test
    void exceptionFromListenerDoesNotStopTheOthers() throws Exception {
        Promise<Void> promise = executor.newPromise();
        CountDownLatch reached = new CountDownLatch(1);
        promise.addListener(f -> {
            throw new IllegalStateException("listener failure (expected by test)");
        });
        promise.addListener(f -> reached.countDown());
        promise.setSuccess(null);
        assertTrue(reached.await(5, TimeUnit.SECONDS));
    }

    @Test
    void removedListenerIsNotNotified() throws Exception {
        Promise<Void> promise = executor.newPromise();
        AtomicInteger removedCalls = new AtomicInteger();
        FutureListener<Void> removed = f -> removedCalls.incrementAndGet();
        CountDownLatch kept = new CountDownLatch(1);
        promise.addListener(removed);
        promise.addListener(f -> kept.countDown());
        promise.removeListener(removed);
        promise.setSuccess(null);
        assertTrue(kept.await(5, TimeUnit.SECONDS));
        assertEquals(0, removedCalls.get());
    }

    @Test
    void blockingWaitOnItsOwnEventLoopThrowsBlockingOperationException() throws Exception {
        Promise<Void> promise = executor.newPromise();
        Future<?> attempt = executor.submit(() -> {
            promise.awaitUninterruptibly();
            return null;
        });
        ExecutionException e = assertThrows(ExecutionException.class, () -> attempt.get(5, TimeUnit.SECONDS));
        assertInstanceOf(BlockingOperationException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("own event loop thread"), e.getCause().getMessage());
        Future<?> syncAttempt = executor.submit(() -> promise.sync());
        assertInstanceOf(BlockingOperationException.class,
                assertThrows(ExecutionException.class, () -> syncAttempt.get(5, TimeUnit.SECONDS)).getCause());
    }

    @Test
    void syncRethrowsTheCauseUnchanged() {
        Promise<Void> promise = executor.newPromise();
        IOException cause = new IOException("peer gone");
        promise.setFailure(cause);
        IOException thrown = assertThrows(IOException.class, promise::sync);
        assertSame(cause, thrown);
        assertSame(cause, assertThrows(IOException.class, promise::syncUninterruptibly));
        assertFalse(promise.isSuccess());
        assertSame(cause, promise.cause());
        assertNull(promise.getNow());
    }

    @Test
    void getWrapsFailuresAndTimesOut() throws Exception {
        Promise<String> pending = executor.newPromise();
        assertThrows(TimeoutException.class, () -> pending.get(10, TimeUnit.MILLISECONDS));
        assertFalse(pending.await(1, TimeUnit.MILLISECONDS));
        Promise<String> failed = executor.newPromise();
        failed.setFailure(new IllegalArgumentException("bad"));
        ExecutionException e = assertThrows(ExecutionException.class, failed::get);
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
        Promise<String> succeeded = executor.newPromise();
        succeeded.setSuccess("ok");
        assertEquals("ok", succeeded.get());
    }

    @Test
    void completingTwiceFailsWithIllegalState() {
        Promise<String> promise = executor.newPromise();
        promise.setSuccess("once");
        assertFalse(promise.trySuccess("twice"));
        assertFalse(promise.tryFailure(new Exception()));
        assertThrows(IllegalStateException.class, () -> promise.setSuccess("twice"));
        assertThrows(IllegalStateException.class, () -> promise.setFailure(new Exception()));
        assertEquals("once", promise.getNow());
    }

    @Test
    void cancellationCompletesWithCancellationException() throws Exception {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<Throwable> seen = new CompletableFuture<>();
        promise.addListener(f -> seen.complete(f.cause()));
        assertTrue(promise.isCancellable());
        assertTrue(promise.cancel(false));
        assertTrue(promise.isCancelled());
        assertTrue(promise.isDone());
        assertFalse(promise.isSuccess());
        assertInstanceOf(CancellationException.class, seen.get(5, TimeUnit.SECONDS));
        assertThrows(CancellationException.class, promise::get);
        assertFalse(promise.trySuccess("late"));
        assertFalse(promise.cancel(true));
    }

    @Test
    void uncancellablePromiseRefusesCancellationButCompletes() {
        Promise<String> promise = executor.newPromise();
        assertTrue(promise.setUncancellable());
        assertFalse(promise.isCancellable());
        assertFalse(promise.cancel(true));
        assertFalse(promise.isDone());
        promise.setSuccess("done");
        assertEquals("done", promise.getNow());
        assertTrue(promise.setUncancellable());

        Promise<String> cancelled = executor.newPromise();
        cancelled.cancel(false);
        assertFalse(cancelled.setUncancellable());
    }

    @Test
    void exactlyOneOfRacingCancelAndSuccessWins() throws Exception {
        for (int round = 0; round < 500; round++) {
            Promise<String> promise = executor.newPromise();
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicInteger winners = new AtomicInteger();
            Thread canceller = new Thread(() -> {
                awaitBarrier(start);
                if (promise.cancel(false)) {
                    winners.incrementAndGet();
                }
            });
            canceller.start();
            awaitBarrier(start);
            if (promise.trySuccess("value")) {
                winners.incrementAndGet();
            }
            canceller.join(5000);
            assertFalse(canceller.isAlive());
            assertEquals(1, winners.get(), "round " + round);
            assertTrue(promise.isDone());
            assertEquals(promise.isCancelled(), !promise.isSuccess());
        }
    }

    @Test
    void completionWakesEveryWaitingThread() throws Exception {
        Promise<String> promise = executor.newPromise();
        int waiters = 4;
        CountDownLatch woken = new CountDownLatch(waiters);
        for (int i = 0; i < waiters; i++) {
            Thread t = new Thread(() -> {
                if ("v".equals(promise.syncUninterruptibly().getNow())) {
                    woken.countDown();
                }
            });
            t.setDaemon(true);
            t.start();
        }
        promise.setSuccess("v");
        assertTrue(woken.await(5, TimeUnit.SECONDS));
    }

    @Test
    void completableFutureViewFollowsThePromiseAndCancelsIt() throws Exception {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<String> cf = promise.toCompletableFuture();
        promise.setSuccess("hello");
        assertEquals("hello", cf.get(5, TimeUnit.SECONDS));

        Promise<String> failing = executor.newPromise();
        CompletableFuture<String> stage = failing.asStage().toCompletableFuture();
        failing.setFailure(new IOException("boom"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> stage.get(5, TimeUnit.SECONDS));
        assertInstanceOf(IOException.class, e.getCause());

        Promise<String> toCancel = executor.newPromise();
        toCancel.toCompletableFuture().cancel(false);
        assertTrue(toCancel.isCancelled());
    }

    @Test
    void succeededAndFailedFuturesAreCompleteAtOnce() {
        Future<String> ok = executor.newSucceededFuture("x");
        assertTrue(ok.isSuccess());
        assertEquals("x", ok.getNow());
        Future<String> bad = executor.newFailedFuture(new IOException("no"));
        assertTrue(bad.isDone());
        assertInstanceOf(IOException.class, bad.cause());
        assertTrue(bad.toString().contains("failure"), bad.toString());
    }

    private static void awaitBarrier(CyclicBarrier barrier) {
        try {
            barrier.await(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
