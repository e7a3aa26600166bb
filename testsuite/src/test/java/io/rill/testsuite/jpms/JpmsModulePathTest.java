package io.rill.testsuite.jpms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.util.PlatformInfo;

/**
 * Rill as a named-module user meets it: a program that {@code requires io.rill.codec.http},
 * {@code io.rill.codec.http2} and {@code io.rill.transport.epoll}, compiled by javac on the module
 * path and run in a fresh JVM on the module path alone, does HTTP round trips over NIO and epoll,
 * plaintext and over TLS with both providers, a WebSocket round trip over HTTP/2 on each
 * (which takes what io.rill.codec.http exports to io.rill.codec.http2 alone), and an exchange
 * behind a PROXY header through SOCKS5 with a DNS query through the DNS codec (the client modules). No
 * {@code --add-opens} or {@code --add-exports} is passed, so this proves the exports and that
 * nothing reflects into a closed package; no warning may reach standard error, so it also proves
 * the {@code --enable-native-access} values the README gives. Runs on this JDK and, when
 * installed, on JDK 25 (which warns about native access where 17 does not).
 */
class JpmsModulePathTest {

    /** The modules that call System.load, as the JDK 24+ warning names them. */
    static final String NATIVE_ACCESS = "--enable-native-access=io.rill.common,io.rill.transport.epoll";
    /** io.rill.handler requires it statically, so only this (or the application's requires) resolves it. */
    static final String TCNATIVE_CLASSES = "io.netty.tcnative.classes.openssl";
    static final Path JDK_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    @TempDir
    static Path out;
    static ModulePathProgram program;

    @BeforeAll
    static void compile() throws Exception {
        // The testsuite's tcnative dependency carries only the linux-x86_64 library, and epoll is Linux's.
        assumeTrue(PlatformInfo.classifier().equals("linux-x86_64"), "needs linux-x86_64");
        program = ModulePathProgram.fromTestClassPath();
        // tcnative's other platforms come along too (its POM depends on them): harmless, as for a user.
        Set<String> needed = Set.of("io.rill.buffer", "io.rill.codec", "io.rill.codec.http", "io.rill.codec.http2",
                "io.rill.common", "io.rill.handler", "io.rill.transport", "io.rill.transport.epoll", "io.rill.resolver",
                "io.rill.resolver.dns", "io.rill.codec.socks", "io.rill.handler.proxy", "io.rill.codec.haproxy",
                TCNATIVE_CLASSES,
                "io.netty.internal.tcnative.openssl.linux.x86_64");
        assertTrue(program.moduleNames().containsAll(needed), "module path: " + program.moduleNames());
        program.compile(out);
    }

    @Test
    void roundTripsOverEveryTransportAndProviderOnTheModulePath() throws Exception {
        assertAllPassWithoutWarnings(Path.of(System.getProperty("java.home")));
    }

    @Test
    void roundTripsOnTheModulePathOfJdk25WithoutNativeAccessWarnings() throws Exception {
        assumeTrue(Files.isExecutable(JDK_25.resolve("bin/java")), JDK_25 + " not installed");
        assertAllPassWithoutWarnings(JDK_25);
    }

    @Test
    void namesTheFlagThatResolvesTcnativeWhenNothingRequiresIt() throws Exception {
        ModulePathProgram.Run run = program.run(Path.of(System.getProperty("java.home")), out,
                List.of(NATIVE_ACCESS), "--expect-openssl-unavailable", "--add-modules " + TCNATIVE_CLASSES);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.stdout().contains("add 'requires " + TCNATIVE_CLASSES + ";'"), run.toString());
    }

    private static void assertAllPassWithoutWarnings(Path javaHome) throws Exception {
        // Only the classes module is added: the BoringSSL jar is found on the module path unresolved.
        ModulePathProgram.Run run = program.run(javaHome, out, List.of(NATIVE_ACCESS,
                "--add-modules", TCNATIVE_CLASSES));
        assertEquals(0, run.exitCode(), run.toString());
        for (String transport : List.of("NIO", "EPOLL")) {
            assertTrue(run.stdout().contains(transport + "/PLAINTEXT: PING\n"), run.toString());
            assertTrue(run.stdout().matches("(?s).*" + transport + "/TLS_JDK: PING over TLS\\S+ \\(JDK\\)\n.*"),
                    run.toString());
            assertTrue(run.stdout().matches("(?s).*" + transport + "/TLS_OPENSSL: PING over TLS\\S+ \\(OPENSSL\\)\n.*"),
                    run.toString());
            assertTrue(run.stdout().contains(transport + "/H2_WEBSOCKET: PING over a WebSocket on an HTTP/2 stream\n"),
                    run.toString());
            assertTrue(run.stdout().contains(transport + "/PROXIED: PING through SOCKS5 after a PROXY header,"
                    + " a DNS query of www.example.com.\n"), run.toString());
        }
        assertTrue(run.stdout().contains("all round trips passed"), run.toString());
        assertEquals("", run.stderr(), "nothing on standard error, no warning in particular: " + run);
    }
}
