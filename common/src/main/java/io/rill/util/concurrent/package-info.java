/**
 * Futures, promises and the executors that complete them.
 *
 * <p>{@link io.rill.util.concurrent.Future} is the result of every asynchronous operation in Rill;
 * {@link io.rill.util.concurrent.Promise} is the side that completes it. A listener added with
 * {@code addListener} runs on the future's executor once it completes (at once, if it already
 * has); {@code sync()} waits and rethrows a failure; {@code asStage()} and
 * {@code toCompletableFuture()} join the JDK's {@code CompletableFuture} world. Waiting on an
 * event loop thread for work that thread must do throws
 * {@link io.rill.util.concurrent.BlockingOperationException} instead of hanging.
 *
 * <p>{@link io.rill.util.concurrent.EventExecutor} is one thread with a task queue and a timer
 * heap ({@link io.rill.util.concurrent.SingleThreadEventExecutor}); an
 * {@link io.rill.util.concurrent.EventExecutorGroup} hands out its executors in turn.
 * {@link io.rill.util.concurrent.DefaultEventExecutorGroup} runs handlers that block off the I/O
 * loops, {@link io.rill.util.concurrent.GlobalEventExecutor} is a lazily started single thread for
 * work that belongs to no loop, {@link io.rill.util.concurrent.ImmediateEventExecutor} runs tasks on
 * the calling thread. {@link io.rill.util.concurrent.FastThreadLocal} is an indexed thread-local
 * for {@link io.rill.util.concurrent.FastThreadLocalThread}s; {@link io.rill.util.concurrent.Ticker}
 * is the clock executors schedule by, which tests replace with a
 * {@link io.rill.util.concurrent.ManualTicker}.
 */
package io.rill.util.concurrent;
