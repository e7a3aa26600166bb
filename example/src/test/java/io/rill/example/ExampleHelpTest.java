package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** {@code <example> --help} prints the example's options, defaults and limits and exits 0; bad usage exits 2. */
class ExampleHelpTest {

    /** What {@link Main#run} printed and returned. */
    private record Outcome(int status, String out, String err) {
    }

    private static Outcome run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(args, o, e);
        }
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyExamplePrintsItsOwnOptionsWithTheirDefaultsAndTheCommonOnes() throws Exception {
        for (Example example : Main.EXAMPLES) {
            Outcome help = run(example.name(), "--help");
            assertEquals(0, help.status(), example.name());
            assertEquals("", help.err(), example.name());
            assertTrue(help.out().startsWith("Usage: java -jar rill-example.jar " + example.name() + " [options]"
                    + (example.arguments() == null ? "" : " " + example.arguments()) + "\n"),
                    help.out());
            for (ExampleOption o : example.options()) {
                assertTrue(help.out().contains(o.usage()), example.name() + " lacks " + o.usage() + ":\n" + help.out());
                String dflt = o.kind == ExampleOption.Kind.FLAG ? "default off"
                        : o.defaultValue == null ? "no default" : "default " + o.defaultValue;
                assertTrue(help.out().contains(dflt + (o.kind == ExampleOption.Kind.NUMBER ? "; " + o.min + ".." + o.max : "")),
                        example.name() + " --" + o.name + ":\n" + help.out());
            }
            for (ExampleOption o : ExampleOptions.COMMON) {
                assertTrue(help.out().contains(o.usage()), example.name() + ":\n" + help.out());
            }
            for (String limit : example.limits()) {
                assertTrue(help.out().contains("Limits:\n") && help.out().contains("  " + limit + "\n"), help.out());
            }
        }
    }

    @Test
    void everyServerNamesItsLimits() {
        for (Example example : Main.EXAMPLES) {
            boolean client = example instanceof EchoClient || example instanceof SchedulerDemo;
            assertTrue(client || !example.limits().isEmpty(), example.name() + " names no limits");
        }
    }

    @Test
    void theLimitsOfTheChatAndOfPortUnificationAreOptionsWithSaneDefaults() throws Exception {
        String chat = run("line-chat-server", "--help").out();
        assertTrue(chat.contains("--max-queued BYTES"), chat);
        assertTrue(chat.contains("(default 4194304; 1048576..1073741824)"), chat);
        for (String http : new String[] {"http-echo", "http-file-server"}) {
            String help = run(http, "--help").out();
            assertTrue(help.contains("--header-timeout SECONDS") && help.contains("--body-timeout SECONDS")
                    && help.contains("--idle-timeout SECONDS"), help);
        }
        String unification = run("port-unification", "-h").out();
        assertTrue(unification.contains("--max-inflated BYTES"), unification);
        assertTrue(unification.contains("--max-inflate-ratio N"), unification);
        assertTrue(unification.contains("(default 100; 0..2147483647)"), unification);
    }

    @Test
    void helpFromTheCommandLineExitsZero() throws Exception {
        Process p = new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "http-hello", "--help")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "exited");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("--idle-timeout SECONDS") && out.contains("(default 60; 1..86400)"), out);
        assertTrue(out.contains("--header-timeout SECONDS") && out.contains("--body-timeout SECONDS"), out);
        assertTrue(out.contains("408"), "the limits name what a slow client gets: " + out);
    }

    @Test
    void anUnknownOptionExitsTwoAndPointsToTheExamplesHelp() throws Exception {
        Outcome bad = run("http-hello", "--no-such-option", "1");
        assertEquals(2, bad.status());
        assertEquals("http-hello: unknown option --no-such-option (see http-hello --help)\n", bad.err());
        assertEquals(2, run("no-such-example").status());
    }

    @Test
    void valuesAreCheckedAgainstTheirDeclaration() {
        List<ExampleOption> chat = new LineChatServer().options();
        ExampleOptions.UsageException range = assertThrows(ExampleOptions.UsageException.class,
                () -> ExampleOptions.parse(new String[] {"--max-queued", "10"}, chat));
        assertEquals("--max-queued 10 (expected: 1048576..1073741824)", range.getMessage());
        assertThrows(ExampleOptions.UsageException.class, () -> ExampleOptions.parse(new String[] {"--max-line"}, chat));
        assertThrows(ExampleOptions.UsageException.class,
                () -> ExampleOptions.parse(new String[] {"--transport", "kqueue"}, chat));
        ExampleOptions parsed = ExampleOptions.parse(new String[] {"--max-queued=2097152", "--port", "0"}, chat);
        assertEquals(2 << 20, parsed.intValue(LineChatServer.MAX_QUEUED));
        assertEquals(1024, parsed.intValue(LineChatServer.MAX_LINE), "the declared default");
        assertEquals(0, parsed.port);
    }

    @Test
    void aFlagTakesNoValueSoTheNextOptionIsNotSwallowed() {
        List<ExampleOption> options = new EchoServer().options();
        ExampleOptions parsed = ExampleOptions.parse(new String[] {"--tls", "--port", "9"}, options);
        assertTrue(parsed.flag(options.get(0)));
        assertEquals(9, parsed.port);
    }
}
