/** Rill's runtime base: futures, executors, timers, thread-locals, leak detection. */
module io.rill.common {
    exports io.rill.util;
    exports io.rill.util.concurrent;
}
