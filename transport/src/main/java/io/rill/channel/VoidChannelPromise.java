package io.rill.channel;

import java.util.concurrent.TimeUnit;

import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.FutureListener;
import io.rill.util.concurrent.Promise;

/**
 * The shared promise of {@link ChannelOutboundInvoker#voidPromise()}: one per channel, so a
 * write whose outcome nobody watches allocates no promise. It never completes; a failure
 * reported to it is fired as {@code exceptionCaught} through the pipeline instead, and
 * listening or waiting on it is refused since it would never wake up.
 */
final class VoidChannelPromise implements Promise<Void> {

    private final Channel channel;

    VoidChannelPromise(Channel channel) {
        this.channel = channel;
    }

    @Override
    public Promise<Void> setSuccess(Void result) {
        return this;
    }

    @Override
    public boolean trySuccess(Void result) {
        return false;
    }

    @Override
    public Promise<Void> setFailure(Throwable cause) {
        tryFailure(cause);
        return this;
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        channel.pipeline().fireExceptionCaught(cause);
        return false;
    }

    @Override
    public boolean setUncancellable() {
        return true;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public boolean isDone() {
        return false;
    }

    @Override
    public boolean isSuccess() {
        return false;
    }

    @Override
    public boolean isCancellable() {
        return false;
    }

    @Override
    public Throwable cause() {
        return null;
    }

    @Override
    public Void getNow() {
        return null;
    }

    @Override
    public EventExecutor executor() {
        return channel.eventLoop();
    }

    @Override
    public Promise<Void> addListener(FutureListener<? super Void> listener) {
        throw refuse();
    }

    @Override
    public Promise<Void> removeListener(FutureListener<? super Void> listener) {
        return this;
    }

    @Override
    public Promise<Void> sync() {
        throw refuse();
    }

    @Override
    public Promise<Void> syncUninterruptibly() {
        throw refuse();
    }

    @Override
    public Promise<Void> await() {
        throw refuse();
    }

    @Override
    public Promise<Void> awaitUninterruptibly() {
        throw refuse();
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) {
        throw refuse();
    }

    @Override
    public boolean awaitUninterruptibly(long timeout, TimeUnit unit) {
        throw refuse();
    }

    @Override
    public Void get() {
        throw refuse();
    }

    @Override
    public Void get(long timeout, TimeUnit unit) {
        throw refuse();
    }

    @Override
    public java.util.concurrent.CompletableFuture<Void> toCompletableFuture() {
        throw refuse();
    }

    private static IllegalStateException refuse() {
        return new IllegalStateException("the void promise never completes: pass newPromise() to observe an operation");
    }

    @Override
    public String toString() {
        return "VoidChannelPromise(" + channel + ')';
    }

    /** True if {@code future} is a void promise, whose outcome nobody observes. */
    static boolean isVoid(Future<?> future) {
        return future instanceof VoidChannelPromise;
    }
}
