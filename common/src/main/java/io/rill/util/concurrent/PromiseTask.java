package io.rill.util.concurrent;

import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.RunnableFuture;

/** A task submitted to an executor together with the promise of its result. */
class PromiseTask<V> extends DefaultPromise<V> implements RunnableFuture<V> {

    /** The work; dropped once the task is done so a kept future does not retain it. */
    private Callable<V> task;

    PromiseTask(EventExecutor executor, Callable<V> task) {
        super(executor);
        this.task = task;
    }

    PromiseTask(EventExecutor executor, Runnable task, V result) {
        this(executor, Executors.callable(task, result));
    }

    @Override
    public void run() {
        if (!setUncancellable()) {
            return; // cancelled before it ran
        }
        Callable<V> work = task;
        task = null;
        try {
            trySuccess(work.call());
        } catch (Throwable t) {
            tryFailure(t);
        }
    }

    /** Runs the work once more without completing the promise; false if it threw (the promise then fails). */
    final boolean runAgain() {
        try {
            task.call();
            return true;
        } catch (Throwable t) {
            task = null;
            tryFailure(t);
            return false;
        }
    }

    final boolean hasWork() {
        return task != null;
    }

    @Override
    public String toString() {
        Callable<V> work = task;
        return work == null ? super.toString() : super.toString() + " task: " + work;
    }
}
