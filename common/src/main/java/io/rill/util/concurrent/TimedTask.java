package io.rill.util.concurrent;

import jdk.jfr.FlightRecorder;

import io.rill.util.RillProperties;

/**
 * A queued task with the time it was queued, made only while a JFR recording has
 * {@code io.rill.TaskLag} on: when it runs, it reports the wait if it exceeded the threshold. With
 * no such recording no task is wrapped, so the queue costs nothing extra.
 */
final class TimedTask implements Runnable {

    private final Runnable task;
    private final long queuedNanos;

    private TimedTask(Runnable task, long queuedNanos) {
        this.task = task;
        this.queuedNanos = queuedNanos;
    }

    /** {@code task}, wrapped to report its lag if a recording wants it. */
    static Runnable wrapIfRecording(Runnable task) {
        // FlightRecorder first: loading an event class loads JFR itself (~100 classes, 150 ms on a
        // fresh JVM), which the first task of every program would otherwise wait for.
        return FlightRecorder.isInitialized() && TaskLagEvent.PROBE.isEnabled()
                ? new TimedTask(task, System.nanoTime()) : task;
    }

    /** The task as submitted, so shutdown can cancel a future that was wrapped. */
    static Runnable unwrap(Runnable task) {
        return task instanceof TimedTask timed ? timed.task : task;
    }

    @Override
    public void run() {
        long lag = System.nanoTime() - queuedNanos;
        if (lag > RillProperties.JFR_TASK_LAG_THRESHOLD_NANOS) {
            TaskLagEvent event = new TaskLagEvent();
            if (event.shouldCommit()) {
                event.lag = lag;
                event.executor = Thread.currentThread().getName();
                event.taskClass = task.getClass();
                event.commit();
            }
        }
        task.run();
    }

    @Override
    public String toString() {
        return task.toString();
    }
}
