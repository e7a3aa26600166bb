package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code scheduler-demo} in a fresh JVM, as a user runs it: exactly the ticks asked for, the first
 * one before the second is due (it once waited ~400 ms for JFR to load, and the fixed-rate ticker
 * then caught up with several ticks in the same millisecond and one tick too many).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerDemoTest {

    private static final Pattern TICK = Pattern.compile("tick (\\d+) at \\+(\\d+) ms on .*");

    @Test
    void printsExactlyTheTicksAskedForAndTheFirstOnTime() throws Exception {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "scheduler-demo", "--ticks", "6")
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), out);
        assertEquals(0, process.exitValue(), out);
        List<Matcher> ticks = out.lines().map(TICK::matcher).filter(Matcher::matches).collect(Collectors.toList());
        assertEquals(List.of("1", "2", "3", "4", "5", "6"), ticks.stream().map(m -> m.group(1)).collect(Collectors.toList()), out);
        assertTrue(Long.parseLong(ticks.get(0).group(2)) < 100, "the first tick is due at once, the second at +100 ms: " + out);
        assertTrue(out.contains("executor group terminated"), out);
    }
}
