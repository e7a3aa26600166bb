package io.rill.util;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaked a resource tracked by {@link ResourceLeakDetector}. Registered for
 * every Rill module through {@code META-INF/services} in rill-common's test-jar and JUnit's
 * extension autodetection (switched on in the root pom's surefire configuration).
 *
 * <p>After each test it forces garbage collection and drains the detector's queue. "Forces"
 * deterministically, without sleeping: a sentinel object is made unreachable and
 * {@code System.gc()} repeated (a bounded number of times) until the sentinel's phantom
 * reference arrives. That is done twice: the JVM's reference handler enqueues one GC's
 * references as a batch before it takes the next GC's, so the second sentinel arriving proves
 * that every reference found by the first GC, leaked trackers included, is in its queue.
 * When no tracker was created since the last check, nothing new can have leaked and the GC is
 * skipped, so tests that never touch a tracked resource pay nothing.
 *
 * <p>A leaked object still referenced from the test instance (a field) is only found after
 * JUnit lets go of the instance, by a later test's check. Tests of the detector itself carry
 * {@link LeaksExpected}.
 */
public final class LeakDetectionExtension implements AfterEachCallback {

    private static final int GC_ROUNDS = 10;
    private static final long SENTINEL_WAIT_MILLIS = 200;

    /** Reports received since the last {@link #collectLeaks()}. Guarded by itself. */
    private static final List<String> reports = new ArrayList<>();
    private static long trackedAtLastCheck = -1;

    static {
        ResourceLeakDetector.addLeakListener((type, report) -> {
            synchronized (reports) {
                reports.add(report);
            }
        });
    }

    /** Instantiated by JUnit's extension autodetection. */
    public LeakDetectionExtension() {
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<String> leaks = collectLeaks();
        if (leaks.isEmpty() || leaksExpected(context)) {
            return;
        }
        StringBuilder message = new StringBuilder()
                .append(leaks.size()).append(" resource leak(s) detected in or before ")
                .append(context.getDisplayName()).append(":\n");
        for (String report : leaks) {
            message.append(report).append('\n');
        }
        throw new AssertionError(message.toString());
    }

    /**
     * Collects garbage if anything was tracked since the last call, drains the detector and
     * returns the reports of every leak found since the last call (oldest first).
     */
    public static synchronized List<String> collectLeaks() {
        long tracked = ResourceLeakDetector.trackedCount();
        if (tracked != trackedAtLastCheck) {
            trackedAtLastCheck = tracked;
            collectGarbage();
            collectGarbage();
        }
        ResourceLeakDetector.checkForLeaks();
        synchronized (reports) {
            List<String> found = new ArrayList<>(reports);
            reports.clear();
            return found;
        }
    }

    /** Runs GC until a fresh sentinel's phantom reference is enqueued (or the rounds run out). */
    private static void collectGarbage() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        PhantomReference<Object> sentinel = new PhantomReference<>(new Object(), queue);
        try {
            for (int round = 0; round < GC_ROUNDS; round++) {
                System.gc();
                if (queue.remove(SENTINEL_WAIT_MILLIS) != null) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Reference.reachabilityFence(sentinel);
        }
    }

    private static boolean leaksExpected(ExtensionContext context) {
        return annotated(context.getElement()) || annotated(context.getTestClass().map(c -> (AnnotatedElement) c));
    }

    private static boolean annotated(Optional<? extends AnnotatedElement> element) {
        return element.map(e -> e.isAnnotationPresent(LeaksExpected.class)).orElse(false);
    }
}
