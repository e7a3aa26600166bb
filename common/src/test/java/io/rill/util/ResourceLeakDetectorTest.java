package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@LeaksExpected
class ResourceLeakDetectorTest {

    /** One resource type per scenario, so reports from different tests can't be confused. */
    static final class Widget {
    }

    static final class Gadget {
    }

    private ResourceLeakDetector.Level originalLevel;

    @BeforeEach
    void rememberLevel() {
        originalLevel = ResourceLeakDetector.level();
        LeakDetectionExtension.collectLeaks();
    }

    @AfterEach
    void restoreLevel() {
        ResourceLeakDetector.setLevel(originalLevel);
    }

    @Test
    void reportsLeakOfUnreleasedObjectAtParanoid() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetector<Object> detector = new ResourceLeakDetector<>(Widget.class, 1_000_000);
        leak(detector, 1);

        List<String> reports = leaksOf("Widget");
        assertEquals(1, reports.size(), reports::toString);
        String report = reports.get(0);
        assertTrue(report.startsWith("LEAK: Widget was garbage-collected before it was released"), report);
        assertTrue(report.contains("level PARANOID"), report);
        assertTrue(report.contains("Created at:"), report);
        assertTrue(report.contains("ResourceLeakDetectorTest.leak("), report);
    }

    @Test
    void reportsLeakAtSimpleWithSamplingIntervalOneWithoutRecords() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
        ResourceLeakDetector<Object> detector = new ResourceLeakDetector<>(Widget.class, 1);
        leak(detector, 3);

        List<String> reports = leaksOf("Widget");
        assertEquals(1, reports.size(), reports::toString);
        String report = reports.get(0);
        assertTrue(report.contains("level SIMPLE (one object in 1 tracked)"), report);
        assertTrue(report.contains("-Drill.leakDetection.level=ADVANCED"), report);
        assertFalse(report.contains("Created at:"), report);
        assertFalse(report.contains("Hint:"), report);
    }

    @Test
    void tracksNothingWhenDisabled() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        ResourceLeakDetector<Widget> detector = new ResourceLeakDetector<>(Widget.class, 1);
        long before = ResourceLeakDetector.trackedCount();
        for (int i = 0; i < 100; i++) {
            assertNull(detector.track(new Widget()));
        }
        assertEquals(before, ResourceLeakDetector.trackedCount());
    }

    @Test
    void samplesAboutOneObjectPerIntervalAtSimpleAndAdvanced() {
        for (ResourceLeakDetector.Level level : List.of(ResourceLeakDetector.Level.SIMPLE,
                ResourceLeakDetector.Level.ADVANCED)) {
            ResourceLeakDetector.setLevel(level);
            ResourceLeakDetector<Widget> detector = new ResourceLeakDetector<>(Widget.class, 4);
            int tracked = 0;
            for (int i = 0; i < 4000; i++) {
                Widget widget = new Widget();
                ResourceLeakTracker<Widget> tracker = detector.track(widget);
                if (tracker != null) {
                    tracked++;
                    assertTrue(tracker.close(widget));
                }
            }
            // Binomial(4000, 1/4): mean 1000, standard deviation ~27; these bounds are > 10 sigma.
            assertTrue(tracked > 700 && tracked < 1300, "tracked " + tracked);
        }
    }

    @Test
    void keepsBoundedRecordsWithTheNewestFirst() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetector<Object> detector = new ResourceLeakDetector<>(Widget.class);
        leak(detector, 50);

        String report = leaksOf("Widget").get(0);
        List<Integer> hints = hintNumbers(report);
        assertEquals(RillProperties.LEAK_DETECTION_TARGET_RECORDS, hints.size(), report);
        assertEquals(49, hints.get(0), report);
        for (int i = 1; i < hints.size(); i++) {
            assertTrue(hints.get(i) < hints.get(i - 1), "newest first: " + hints);
        }
        assertTrue(report.contains((50 - RillProperties.LEAK_DETECTION_TARGET_RECORDS) + " dropped"), report);
    }

    @Test
    void showsResourceLeakHintText() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.ADVANCED);
        ResourceLeakDetector<Widget> detector = new ResourceLeakDetector<>(Widget.class, 1);
        leakWithHint(detector, () -> "decoder in pipeline 'server'");

        String report = leaksOf("Widget").get(0);
        assertTrue(report.contains("#1: Hint: decoder in pipeline 'server'"), report);
        assertTrue(report.contains("-Drill.leakDetection.level=PARANOID"), report);
    }

    @Test
    void leavesDetectorFramesOutOfRecords() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        leak(new ResourceLeakDetector<>(Widget.class), 2);

        String report = leaksOf("Widget").get(0);
        assertFalse(report.contains("at io.rill.util.ResourceLeakDetector."), report);
        assertFalse(report.contains("at io.rill.util.ResourceLeakDetector$"), report);
        assertTrue(report.contains("at io.rill.util.ResourceLeakDetectorTest.leak("), report);
    }

    @Test
    void leavesIdenticalRecordsOutOfTheReport() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetector<Widget> detector = new ResourceLeakDetector<>(Widget.class);
        recordSameSpotThrice(detector);

        String report = leaksOf("Widget").get(0);
        assertTrue(report.contains("2 identical record(s) left out"), report);
        assertFalse(report.contains("#2:"), report);
    }

    @Test
    void closeReturnsFalseTheSecondTimeAndForAnotherObject() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetector<Widget> detector = new ResourceLeakDetector<>(Widget.class);
        Widget widget = new Widget();
        ResourceLeakTracker<Widget> tracker = detector.track(widget);
        assertNotNull(tracker);
        assertFalse(tracker.close(new Widget()));
        assertTrue(tracker.close(widget));
        assertFalse(tracker.close(widget));
    }

    @Test
    void closedObjectsAreNotReported() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetector<Gadget> detector = new ResourceLeakDetector<>(Gadget.class);
        for (int i = 0; i < 100; i++) {
            Gadget gadget = new Gadget();
            detector.track(gadget).close(gadget);
        }
        assertEquals(List.of(), leaksOf("Gadget"));
    }

    @Test
    void listenerReceivesTypeAndReportUntilRemoved() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetector<Object> detector = new ResourceLeakDetector<>(Gadget.class);
        List<String> received = new ArrayList<>();
        ResourceLeakDetector.LeakListener listener = (type, report) -> received.add(type + "|" + report);
        ResourceLeakDetector.addLeakListener(listener);
        try {
            leak(detector, 0);
            LeakDetectionExtension.collectLeaks();
        } finally {
            ResourceLeakDetector.removeLeakListener(listener);
        }
        assertEquals(1, received.size(), received::toString);
        assertTrue(received.get(0).startsWith("Gadget|LEAK: Gadget"), received.get(0));

        leak(detector, 0);
        assertEquals(1, leaksOf("Gadget").size());
        assertEquals(1, received.size(), "removed listener must not be called");
    }

    @Test
    void rejectsNonPositiveSamplingIntervalAndUnknownExclusions() {
        assertThrows(IllegalArgumentException.class, () -> new ResourceLeakDetector<>(Widget.class, 0));
        assertThrows(IllegalArgumentException.class,
                () -> ResourceLeakDetector.addExclusions(Widget.class, "noSuchMethod"));
    }

    @Test
    void parsesLevelNamesIgnoringCaseAndFallsBackOnNonsense() {
        assertEquals(ResourceLeakDetector.Level.ADVANCED,
                RillProperties.parseLevel(" advanced ", ResourceLeakDetector.Level.SIMPLE));
        assertEquals(ResourceLeakDetector.Level.SIMPLE,
                RillProperties.parseLevel("loud", ResourceLeakDetector.Level.SIMPLE));
        assertEquals(ResourceLeakDetector.Level.SIMPLE, RillProperties.parseLevel(null, ResourceLeakDetector.Level.SIMPLE));
    }

    /** Tracks a new object, records {@code records} numbered hints, and drops it unreleased. */
    private static void leak(ResourceLeakDetector<Object> detector, int records) {
        ResourceLeakTracker<Object> tracker = detector.track(new Object());
        assertNotNull(tracker);
        for (int i = 0; i < records; i++) {
            tracker.record("hint-" + i);
        }
    }

    private static void leakWithHint(ResourceLeakDetector<Widget> detector, ResourceLeakHint hint) {
        detector.track(new Widget()).record(hint);
    }

    private static void recordSameSpotThrice(ResourceLeakDetector<Widget> detector) {
        ResourceLeakTracker<Widget> tracker = detector.track(new Widget());
        for (int i = 0; i < 3; i++) {
            tracker.record();
        }
    }

    private static List<String> leaksOf(String type) {
        List<String> matching = new ArrayList<>();
        for (String report : LeakDetectionExtension.collectLeaks()) {
            if (report.startsWith("LEAK: " + type + " ")) {
                matching.add(report);
            }
        }
        return matching;
    }

    private static List<Integer> hintNumbers(String report) {
        List<Integer> numbers = new ArrayList<>();
        Matcher m = Pattern.compile("Hint: hint-(\\d+)").matcher(report);
        while (m.find()) {
            numbers.add(Integer.parseInt(m.group(1)));
        }
        return numbers;
    }
}
