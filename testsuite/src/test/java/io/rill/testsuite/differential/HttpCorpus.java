package io.rill.testsuite.differential;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The seeded corpus of the differential run: well-formed HTTP/1.1 messages of many shapes, and as
 * many again mutated. The same seed and count always give the same bytes, so a disagreement found
 * in a long run is found again by its index.
 *
 * <p>File format, one entry per line: {@code METHOD BASE64}. For a request entry METHOD is
 * {@code -}; for a response entry it is the method of the request the response answers (so every
 * parser applies the HEAD and CONNECT rules).
 */
final class HttpCorpus {

    /** One message (or a pipelined pair of requests) as it arrives on a connection that then closes. */
    record Entry(String requestMethod, byte[] bytes) {
    }

    /** What the corpus holds. */
    enum Kind { REQUESTS, RESPONSES }

    private HttpCorpus() {
    }

    /** Generates {@code count} entries; entry {@code i} depends only on {@code seed} and {@code i}. */
    static List<Entry> generate(Kind kind, long seed, int count) {
        List<Entry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(entry(kind, seed, i));
        }
        return entries;
    }

    /** Entry {@code i} of the corpus of {@code seed}: its own random stream, so entries can be regenerated one at a time. */
    static Entry entry(Kind kind, long seed, int i) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
        MessageBuilder builder = new MessageBuilder(random);
        if (kind == Kind.REQUESTS) {
            byte[] valid = builder.requestOrPipelinedPair();
            return new Entry("-", random.nextInt(100) < 55 ? new Mutator(random).mutate(valid) : valid);
        }
        String method = builder.requestMethodForResponse();
        byte[] valid = builder.response(method);
        return new Entry(method, random.nextInt(100) < 55 ? new Mutator(random).mutate(valid) : valid);
    }

    /** Writes the entries in the file format above. */
    static void write(List<Entry> entries, Path file) throws IOException {
        Base64.Encoder b64 = Base64.getEncoder();
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            for (Entry e : entries) {
                w.write(e.requestMethod());
                w.write(' ');
                w.write(b64.encodeToString(e.bytes()));
                w.write('\n');
            }
        }
    }
}
