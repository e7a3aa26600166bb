/** Rill's runtime base: futures, executors, timers, thread-locals, leak detection. */
module io.rill.common {
    // JFR events (io.rill.TaskLag, io.rill.LeakDetected); they cost nothing while no recording wants them.
    requires jdk.jfr;

    exports io.rill.util;
    exports io.rill.util.concurrent;
}
