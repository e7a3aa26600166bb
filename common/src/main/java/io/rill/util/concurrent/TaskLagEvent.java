package io.rill.util.concurrent;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code io.rill.TaskLag}: a task waited in an event loop's queue longer than
 * {@code rill.jfr.taskLagThresholdMillis} before it ran. A loop that is behind delays every
 * channel on it; this names the loop and the kind of task that found it late.
 */
@Name("io.rill.TaskLag")
@Label("Event Loop Task Lag")
@Category("Rill")
@Description("A task waited in an event loop's queue longer than rill.jfr.taskLagThresholdMillis")
@StackTrace(false)
final class TaskLagEvent extends jdk.jfr.Event {

    /** Asked whether the event is on; isEnabled() reads no state of the instance, so one serves every thread. */
    static final TaskLagEvent PROBE = new TaskLagEvent();

    @Label("Lag")
    @Description("Time from queueing to running")
    @Timespan(Timespan.NANOSECONDS)
    long lag;

    @Label("Executor")
    @Description("The thread of the event loop")
    String executor;

    @Label("Task Class")
    Class<?> taskClass;
}
