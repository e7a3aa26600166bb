package io.rill.testsuite.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rill logs through {@code System.Logger} and depends on no logging library; a user routes it to
 * theirs by adding that library's {@code System.LoggerFinder} bridge to the class path. Each test
 * runs {@link LoggingBridgeMain} in a fresh JVM with the jars a user would add (copied into
 * {@code target/logging-bridges} by the build, not on this JVM's class path) and checks that the
 * backend received Rill's record with its logger name, level, message and cause.
 */
class LoggingBridgeTest {

    private static final Path BRIDGES = Path.of("target", "logging-bridges");

    @TempDir
    Path dir;

    @Test
    void slf4jWithLogbackGetsRillsRecords() throws Exception {
        Path config = Files.writeString(dir.resolve("logback.xml"), """
                <configuration>
                  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>BRIDGED %level %logger - %msg%n%ex{1}</pattern></encoder>
                  </appender>
                  <logger name="io.rill" level="DEBUG"/>
                  <root level="WARN"><appender-ref ref="out"/></root>
                </configuration>
                """);
        String out = run("slf4j-logback", "-Dlogback.configurationFile=" + config);
        assertTrue(out.contains("finder: org.slf4j.jdk.platform.logging.SLF4JSystemLoggerFinder"), out);
        assertBridged(out, "WARN");
    }

    @Test
    void log4jGetsRillsRecords() throws Exception {
        Path config = Files.writeString(dir.resolve("log4j2.xml"), """
                <Configuration status="warn">
                  <Appenders>
                    <Console name="out" target="SYSTEM_OUT">
                      <PatternLayout pattern="BRIDGED %level %logger - %msg%n%ex{short}"/>
                    </Console>
                  </Appenders>
                  <Loggers>
                    <Logger name="io.rill" level="debug"/>
                    <Root level="warn"><AppenderRef ref="out"/></Root>
                  </Loggers>
                </Configuration>
                """);
        String out = run("log4j", "-Dlog4j2.configurationFile=" + config);
        assertTrue(out.contains("finder: org.apache.logging.log4j.jpl.Log4jSystemLoggerFinder"), out);
        assertBridged(out, "WARN");
    }

    private static void assertBridged(String out, String level) {
        assertTrue(out.contains("BRIDGED " + level + " io.rill.channel.ChannelInitializer - initChannel() of "), out);
        assertTrue(out.contains("java.lang.IllegalStateException: bridge check"), out);
        // Nothing reached the JDK's own console handler: the bridge took every record.
        assertTrue(!out.contains("WARNING: initChannel()"), out);
    }

    private String run(String bridge, String property) throws Exception {
        List<String> classPath = new ArrayList<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        try (Stream<Path> jars = Files.list(BRIDGES.resolve(bridge))) {
            jars.map(Path::toString).forEach(classPath::add);
        }
        Process p = new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                property, "-cp", String.join(File.pathSeparator, classPath), LoggingBridgeMain.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "exited");
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
