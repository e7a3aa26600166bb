package io.rill.fuzz;

import java.util.ArrayList;
import java.util.List;

import io.rill.util.ResourceLeakDetector;

/**
 * Turns a leak report into a fuzz finding. While fuzzing, JUnit's {@code LeakDetectionExtension}
 * runs only once, after the whole campaign; this listener lets every input check whether the
 * garbage collector found a leaked buffer since the previous one. The report names the buffer's
 * accesses (PARANOID records them), which points at the leaking code even though the input that
 * leaked it may be one of the last few rather than the current one.
 */
public final class FuzzLeaks {

    /** Reports not yet thrown. Guarded by itself. */
    private static final List<String> reports = new ArrayList<>();

    static {
        ResourceLeakDetector.addLeakListener((type, report) -> {
            synchronized (reports) {
                reports.add(type + ": " + report);
            }
        });
    }

    private FuzzLeaks() {
    }

    /** Drains the detector's queue and fails if any leak was reported since the last call. */
    public static void assertNoneReported() {
        ResourceLeakDetector.checkForLeaks();
        synchronized (reports) {
            if (!reports.isEmpty()) {
                String first = reports.get(0);
                int count = reports.size();
                reports.clear();
                throw new AssertionError(count + " leak(s) reported by the detector (this input or one of "
                        + "the last few): " + first);
            }
        }
    }
}
