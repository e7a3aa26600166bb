package io.rill.testsuite.differential;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The differential run: a seeded corpus (see {@link HttpCorpus}) goes through Rill
 * ({@link RillHttpRunner}), llhttp ({@code llhttp-runner.js}) and h11 ({@code h11-runner.py}), in
 * batches so that memory and files stay small, and every entry lands in one {@link Category}.
 * {@code scripts/http-differential.sh} calls {@link #main}; {@code HttpDifferentialTest} runs a
 * sample.
 */
final class HttpDifferential {

    /** Entries per batch: one corpus file and one run of each external parser. */
    private static final int BATCH = 50_000;

    private HttpDifferential() {
    }

    /**
     * {@code main(KIND COUNT [SEED])}: KIND is {@code requests} or {@code responses}. Prints the
     * report; exits 1 if a disagreement is unexplained. {@code main(show KIND SEED INDEX)} prints one entry.
     *
     * @param args the kind, the number of entries and the seed (1 by default)
     * @throws Exception if a parser cannot be run
     */
    public static void main(String[] args) throws Exception {
        if (args[0].equals("show")) {
            show(HttpCorpus.Kind.valueOf(args[1].toUpperCase(java.util.Locale.ROOT)), Long.parseLong(args[2]),
                    Integer.parseInt(args[3]));
            return;
        }
        HttpCorpus.Kind kind = HttpCorpus.Kind.valueOf(args[0].toUpperCase(java.util.Locale.ROOT));
        int count = Integer.parseInt(args[1]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        long start = System.nanoTime();
        DifferentialReport report = run(kind, seed, count, System.err);
        report.print(System.out, 3);
        System.out.printf("%d %s, seed %d, in %d s%n", count, kind.name().toLowerCase(java.util.Locale.ROOT), seed,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        System.exit(report.unexplained() == 0 ? 0 : 1);
    }

    /** {@code show KIND SEED INDEX}: one entry of a corpus, whole, and Rill's verdict on it, to look into a disagreement. */
    private static void show(HttpCorpus.Kind kind, long seed, int index) {
        HttpCorpus.Entry e = HttpCorpus.entry(kind, seed, index);
        System.out.println("answers " + e.requestMethod() + ": " + Escapes.quote(e.bytes(), Integer.MAX_VALUE));
        System.out.println("base64: " + java.util.Base64.getEncoder().encodeToString(e.bytes()));
        System.out.println("rill: " + RillHttpRunner.run(e));
    }

    /** Runs {@code count} entries of the corpus of {@code seed} through the three parsers and classifies each. */
    static DifferentialReport run(HttpCorpus.Kind kind, long seed, int count, PrintStream progress) throws Exception {
        Path scripts = scriptsDirectory();
        Path dir = Files.createTempDirectory("rill-http-differential");
        DifferentialReport report = new DifferentialReport();
        try {
            for (int from = 0; from < count; from += BATCH) {
                int n = Math.min(BATCH, count - from);
                List<HttpCorpus.Entry> entries = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    entries.add(HttpCorpus.entry(kind, seed, from + i));
                }
                Path corpus = dir.resolve("corpus.txt");
                HttpCorpus.write(entries, corpus);
                Process llhttp = start(List.of("node", scripts.resolve("llhttp-runner.js").toString(), corpus.toString()),
                        dir.resolve("llhttp.txt"));
                Process h11 = start(List.of("python3", scripts.resolve("h11-runner.py").toString(), corpus.toString()),
                        dir.resolve("h11.txt"));
                List<String> rill = new ArrayList<>(n);
                for (HttpCorpus.Entry e : entries) {
                    rill.add(RillHttpRunner.run(e));
                }
                List<String> l = finish(llhttp, dir.resolve("llhttp.txt"), n);
                List<String> h = finish(h11, dir.resolve("h11.txt"), n);
                for (int i = 0; i < n; i++) {
                    report.add(from + i, entries.get(i), rill.get(i), l.get(i), h.get(i));
                }
                if (progress != null) {
                    progress.printf("%d of %d entries compared%n", from + n, count);
                }
            }
        } finally {
            for (String f : List.of("corpus.txt", "llhttp.txt", "h11.txt", "llhttp.txt.err", "h11.txt.err")) {
                Files.deleteIfExists(dir.resolve(f));
            }
            Files.deleteIfExists(dir);
        }
        return report;
    }

    private static Process start(List<String> command, Path out) throws IOException {
        return new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(Path.of(out + ".err").toFile()).start();
    }

    private static List<String> finish(Process p, Path out, int expected) throws Exception {
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(p.info().commandLine().orElse("a parser") + " took more than 30 minutes");
        }
        List<String> lines = Files.readAllLines(out, StandardCharsets.ISO_8859_1);
        if (p.exitValue() != 0 || lines.size() != expected) {
            throw new IllegalStateException(p.info().commandLine().orElse("a parser") + " exited with " + p.exitValue()
                    + " after " + lines.size() + " of " + expected + " verdicts: "
                    + Files.readString(Path.of(out + ".err"), StandardCharsets.ISO_8859_1));
        }
        return lines;
    }

    /** The runners' folder, from the testsuite module (Surefire) or from the repository root (the script). */
    static Path scriptsDirectory() {
        Path here = Path.of("scripts", "differential");
        return Files.isDirectory(here) ? here : Path.of("testsuite", "scripts", "differential");
    }
}
