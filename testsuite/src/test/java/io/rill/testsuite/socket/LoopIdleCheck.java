package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import io.rill.channel.EventLoop;

/**
 * Asserts that an event loop is not spinning: the CPU time its thread uses during a window of
 * wall-clock time (measured by the loop's own timer, not by sleeping) stays well below the window.
 * A loop stuck on a readiness it never clears (CVE-2026-42577) burns the whole window.
 */
final class LoopIdleCheck {

    private static final long WINDOW_MILLIS = 300;

    private LoopIdleCheck() {
    }

    static void assertIdle(EventLoop loop) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(threads.isCurrentThreadCpuTimeSupported(), "thread CPU time is not measurable here");
        long threadId = loop.submit(() -> Thread.currentThread().getId()).get(5, TimeUnit.SECONDS);
        long before = threads.getThreadCpuTime(threadId);
        loop.schedule(() -> null, WINDOW_MILLIS, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS);
        long usedMillis = TimeUnit.NANOSECONDS.toMillis(threads.getThreadCpuTime(threadId) - before);
        assertTrue(usedMillis < WINDOW_MILLIS / 2, "the event loop used " + usedMillis + " ms of CPU in a "
                + WINDOW_MILLIS + " ms window: it is spinning");
    }
}
