package io.rill.channel.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's limit on open descriptors, for the warning logged when accept runs out of them.
 * Read once, when the first server channel is made: at the moment it is needed there is no
 * descriptor left to read {@code /proc/self/limits} with.
 */
final class DescriptorLimit {

    /** "256 (hard limit 4096)", or "unknown" off Linux. */
    static final String AT_START = read();

    private DescriptorLimit() {
    }

    private static String read() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                    return fields[0] + " (hard limit " + fields[1] + ")";
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or /proc is hidden: the warning says "unknown".
        }
        return "unknown";
    }
}
