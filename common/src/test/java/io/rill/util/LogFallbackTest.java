package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ResourceBundle;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * A log backend that throws never fails the caller: the line goes to standard error instead, at
 * most once a second, and the next line that gets through says how many were dropped.
 */
class LogFallbackTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AtomicLong nanos = new AtomicLong(42);
    private final LogFallback fallback =
            new LogFallback(() -> new PrintStream(err, true, StandardCharsets.UTF_8), nanos::get);
    private final InternalLogger log = new InternalLogger("test.logger", new ThrowingLogger(), fallback);

    @Test
    void aThrowingBackendFallsBackToOnePlainLinePerSecond() {
        for (int i = 0; i < 100; i++) {
            log.warn("accept failed on {}", "server-" + i, new java.io.IOException("Too many open files"));
        }
        String[] lines = lines();
        assertEquals(1, lines.length, String.join("\n", lines));
        assertTrue(lines[0].startsWith("WARNING test.logger: accept failed on server-0"), lines[0]);
        assertTrue(lines[0].contains("java.io.IOException: Too many open files"), lines[0]);
        assertTrue(lines[0].contains("NoClassDefFoundError: simulated"), lines[0]);

        nanos.addAndGet(999_999_999L);
        log.error("still within the second");
        assertEquals(1, lines().length);

        nanos.addAndGet(1);
        log.error("a second later", new IllegalStateException("boom"));
        lines = lines();
        assertEquals(2, lines.length);
        assertTrue(lines[1].startsWith("ERROR test.logger: a second later [java.lang.IllegalStateException: boom]"),
                lines[1]);
        assertTrue(lines[1].contains("100 earlier line(s) dropped"), lines[1]);
    }

    @Test
    void anArgumentWhoseToStringThrowsIsShownInsteadOfThrown() {
        Object rude = new Object() {
            @Override
            public String toString() {
                throw new UnsupportedOperationException("no");
            }
        };
        StringBuilder out = new StringBuilder();
        InternalLogger.format("task {} failed", new Object[] {rude}, out);
        assertTrue(out.toString().startsWith("task [" + rude.getClass().getName() + ".toString() threw "
                + "java.lang.UnsupportedOperationException: no]"), out.toString());
    }

    @Test
    void aVirtualMachineErrorFromTheBackendIsNotSwallowed() {
        InternalLogger dying = new InternalLogger("test.logger", new ThrowingLogger() {
            @Override
            public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
                throw new OutOfMemoryError("simulated");
            }
        }, fallback);
        org.junit.jupiter.api.Assertions.assertThrows(OutOfMemoryError.class,
                () -> dying.error("x", new RuntimeException()));
    }

    private String[] lines() {
        String text = err.toString(StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? new String[0] : text.split("\\R");
    }

    /** A backend whose every log call throws, as the JDK's does when its formatter cannot open tzdb.dat. */
    private static class ThrowingLogger implements System.Logger {
        @Override
        public String getName() {
            return "test.logger";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            throw new NoClassDefFoundError("simulated: Could not initialize class sun.util.calendar.ZoneInfoFile");
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            throw new NoClassDefFoundError("simulated: Could not initialize class sun.util.calendar.ZoneInfoFile");
        }
    }
}
