package io.rill.channel;

import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.EventExecutor;

/** A channel's close future: completed by the channel alone, when it closes; users may only listen and wait. */
final class CloseFuture extends DefaultPromise<Void> {
    CloseFuture(EventExecutor executor) {
        super(executor);
    }

    @Override
    public boolean trySuccess(Void result) {
        throw new IllegalStateException("the close future completes when the channel closes; call close()");
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        throw new IllegalStateException("the close future never fails");
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    @Override
    public boolean setUncancellable() {
        return true;
    }

    void setClosed() {
        super.trySuccess(null);
    }
}
