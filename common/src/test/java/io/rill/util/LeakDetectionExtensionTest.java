package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

class LeakDetectionExtensionTest {

    private ResourceLeakDetector.Level originalLevel;

    @BeforeEach
    void paranoid() {
        originalLevel = ResourceLeakDetector.level();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @AfterEach
    void restoreLevel() {
        ResourceLeakDetector.setLevel(originalLevel);
    }

    @Test
    void failsTestThatLeakedATrackedObjectAndPassesOneThatReleasedIt() {
        Events tests = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .selectors(selectClass(LeakingTests.class))
                .execute()
                .testEvents();

        tests.assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
        Throwable failure = tests.failed().list().get(0)
                .getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
        assertTrue(failure.getMessage().contains("1 resource leak(s) detected in or before leaksOneThing()"),
                failure.getMessage());
        assertTrue(failure.getMessage().contains("LEAK: Sprocket was garbage-collected"), failure.getMessage());
    }

    /** Run only through the test kit above (surefire skips nested classes). */
    static class LeakingTests {
        static final class Sprocket {
        }

        private static final ResourceLeakDetector<Sprocket> detector = new ResourceLeakDetector<>(Sprocket.class);

        @Test
        void leaksOneThing() {
            detector.track(new Sprocket());
        }

        @Test
        void releasesWhatItTracks() {
            Sprocket sprocket = new Sprocket();
            detector.track(sprocket).close(sprocket);
        }
    }
}
