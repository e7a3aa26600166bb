package io.rill.testsuite.jpms;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;


/**
 * The program in {@code src/jpms/io.rill.jpmstest}, compiled and run on the module path only.
 *
 * <p>Its module path is made of the entries of this test's class path that are Rill's modules
 * (the reactor's jars, or {@code target/classes} directories, which are exploded modules) and
 * netty-tcnative's two modules; nothing else from the class path goes along.
 */
final class ModulePathProgram {

    static final String MODULE = "io.rill.jpmstest";
    static final String MAIN = MODULE + "/io.rill.jpmstest.Main";
    static final Path SOURCES = Path.of("src", "jpms", MODULE);

    /** The finished run of one JVM. */
    record Run(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private final List<Path> modulePath;
    private final Set<String> moduleNames;

    private ModulePathProgram(List<Path> modulePath, Set<String> moduleNames) {
        this.modulePath = modulePath;
        this.moduleNames = moduleNames;
    }

    /** Picks Rill's and tcnative's modules out of {@code java.class.path}. */
    static ModulePathProgram fromTestClassPath() {
        List<Path> entries = new ArrayList<>();
        Set<String> names = new TreeSet<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            boolean candidate = Files.isRegularFile(path) && entry.endsWith(".jar")
                    || Files.isRegularFile(path.resolve("module-info.class"));
            if (!candidate) {
                continue;
            }
            try {
                for (ModuleReference module : ModuleFinder.of(path).findAll()) {
                    String name = module.descriptor().name();
                    if (name.startsWith("io.rill.") || name.startsWith("io.netty.tcnative.")
                            || name.startsWith("io.netty.internal.tcnative.")) {
                        entries.add(path);
                        names.add(name);
                    }
                }
            } catch (FindException e) {
                // A jar whose name makes no automatic module name is no module of ours.
            }
        }
        return new ModulePathProgram(entries, names);
    }

    /** The modules found, by name. */
    Set<String> moduleNames() {
        return moduleNames;
    }

    /** The module path: Rill's and tcnative's entries of the class path, joined. */
    String modulePath() {
        return joined(modulePath);
    }

    /**
     * Compiles the program into {@code out}; fails with javac's output on any error or warning (but
     * path warnings: in-process javac also sees this JVM's class path, whose folders may not all exist).
     */
    void compile(Path out) throws IOException {
        List<String> args = new ArrayList<>(List.of("--release", "17", "-Xlint:all,-path", "-Werror",
                "--module-path", joined(modulePath), "-d", out.resolve(MODULE).toString()));
        try (Stream<Path> files = Files.walk(SOURCES)) {
            args.addAll(files.filter(f -> f.toString().endsWith(".java")).map(Path::toString)
                    .collect(Collectors.toList()));
        }
        ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow();
        StringWriter output = new StringWriter();
        PrintWriter writer = new PrintWriter(output);
        int status = javac.run(writer, writer, args.toArray(new String[0]));
        writer.flush();
        if (status != 0 || !output.toString().isBlank()) {
            throw new AssertionError("javac " + String.join(" ", args) + "\n" + output);
        }
    }

    /** Runs the compiled program from {@code out} with {@code java} of {@code javaHome}; waits at most 3 minutes. */
    Run run(Path javaHome, Path out, List<String> jvmOptions, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(javaHome.resolve("bin").resolve("java").toString());
        command.addAll(jvmOptions);
        command.add("-Drill.leakDetection.level=PARANOID");
        List<Path> path = new ArrayList<>(modulePath);
        path.add(out);
        command.addAll(List.of("--module-path", joined(path), "-m", MAIN));
        command.addAll(List.of(args));
        Path stdout = Files.createTempFile(out, "stdout", ".txt");
        Path stderr = Files.createTempFile(out, "stderr", ".txt");
        Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        process.getOutputStream().close();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("timed out: " + String.join(" ", command) + "\n"
                    + Files.readString(stdout, StandardCharsets.UTF_8));
        }
        return new Run(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
    }

    private static String joined(List<Path> paths) {
        return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }
}
