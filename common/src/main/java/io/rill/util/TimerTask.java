package io.rill.util;

/** Work to run once when its {@link Timeout} expires. */
@FunctionalInterface
public interface TimerTask {

    /**
     * Runs on the timer's thread, so it must be short and must not block; hand longer work to
     * an executor. An exception is logged and does not affect other tasks.
     *
     * @param timeout the handle of this run
     * @throws Exception anything; it is logged
     */
    void run(Timeout timeout) throws Exception;
}
