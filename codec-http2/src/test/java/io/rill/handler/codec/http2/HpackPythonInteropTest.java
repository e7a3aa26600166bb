package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.HpackTestSupport.bytes;
import static io.rill.handler.codec.http2.HpackTestSupport.decode;
import static io.rill.handler.codec.http2.HpackTestSupport.encode;
import static io.rill.handler.codec.http2.HpackTestSupport.fields;
import static io.rill.handler.codec.http2.HpackTestSupport.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-checks against an independent HPACK implementation, Python's {@code hpack} package
 * (PyPI; {@code pip install hpack}): Rill encodes and Python decodes, then the other way round,
 * 500 random sections each through one long-lived context, so dynamic-table indexes and evictions
 * must agree. Skipped when {@code python3} or its {@code hpack} module is missing.
 *
 * <p>Both sides exchange one block or one section per line: a section as
 * {@code name-hex:value-hex} pairs separated by commas, so no text escaping is involved.
 */
class HpackPythonInteropTest {

    private static final String SCRIPT = String.join("\n",
            "import sys, hpack",
            "def section(line):",
            "    return [tuple(bytes.fromhex(x) for x in f.split(':')) for f in line.split(',') if f]",
            "def line_of(fields):",
            "    return ','.join(n.hex() + ':' + v.hex() for n, v in fields)",
            "mode = sys.argv[1]",
            "coder = hpack.Decoder() if mode == 'decode' else hpack.Encoder()",
            "if mode == 'decode':",
            "    coder.max_header_list_size = 1 << 20",
            "for line in sys.stdin:",
            "    line = line.strip()",
            "    if mode == 'decode':",
            "        print(line_of(coder.decode(bytes.fromhex(line), raw=True)))",
            "    else:",
            "        print(coder.encode(section(line)).hex())",
            "");

    private static final int SECTIONS = 500;

    @TempDir
    static Path dir;

    @BeforeAll
    static void requirePythonHpack() throws Exception {
        assumeTrue(run(List.of("python3", "-c", "import hpack"), "") != null, "python3 with hpack is not installed");
        Files.writeString(dir.resolve("hpack_peer.py"), SCRIPT);
    }

    @Test
    void pythonDecodesWhatRillEncodes() throws Exception {
        Random random = new Random(7541);
        HpackEncoder encoder = new HpackEncoder();
        List<Http2Headers> sent = new ArrayList<>();
        StringBuilder blocks = new StringBuilder();
        for (int i = 0; i < SECTIONS; i++) {
            Http2Headers h = HpackSamples.randomSection(random);
            sent.add(h);
            blocks.append(hex(encode(encoder, h))).append('\n');
        }
        List<String> lines = peer("decode", blocks.toString());
        for (int i = 0; i < SECTIONS; i++) {
            assertEquals(fields(sent.get(i)), fields(section(lines.get(i))), "section " + i);
        }
    }

    @Test
    void rillDecodesWhatPythonEncodes() throws Exception {
        Random random = new Random(9113);
        List<Http2Headers> sent = new ArrayList<>();
        StringBuilder sections = new StringBuilder();
        for (int i = 0; i < SECTIONS; i++) {
            Http2Headers h = HpackSamples.randomSection(random);
            sent.add(h);
            sections.append(line(h)).append('\n');
        }
        List<String> blocks = peer("encode", sections.toString());
        HpackDecoder decoder = new HpackDecoder(1 << 20, 4096);
        for (int i = 0; i < SECTIONS; i++) {
            assertEquals(fields(sent.get(i)), fields(decode(decoder, bytes(blocks.get(i)))), "section " + i);
        }
    }

    private static List<String> peer(String mode, String input) throws Exception {
        String output = run(List.of("python3", dir.resolve("hpack_peer.py").toString(), mode), input);
        if (output == null) {
            throw new AssertionError("the python peer failed");
        }
        List<String> lines = output.lines().toList();
        assertEquals(SECTIONS, lines.size());
        return lines;
    }

    private static String line(Http2Headers h) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < h.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(hex(h.nameAt(i).toString().getBytes(StandardCharsets.ISO_8859_1)))
                    .append(':').append(hex(h.valueAt(i).toString().getBytes(StandardCharsets.ISO_8859_1)));
        }
        return sb.toString();
    }

    private static Http2Headers section(String line) {
        Http2Headers h = new Http2Headers();
        for (String field : line.split(",")) {
            if (!field.isEmpty()) {
                String[] nv = field.split(":", -1);
                h.add(new String(bytes(nv[0]), StandardCharsets.ISO_8859_1),
                        new String(bytes(nv[1]), StandardCharsets.ISO_8859_1));
            }
        }
        return h;
    }

    /** Runs a command with {@code input} on stdin; its stdout, or null if it cannot run or fails. */
    private static String run(List<String> command, String input) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            Thread writer = new Thread(() -> {
                try (var in = p.getOutputStream()) {
                    in.write(input.getBytes(StandardCharsets.US_ASCII));
                } catch (IOException ignored) {
                    // the process died; its exit status says so
                }
            });
            writer.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            writer.join(10_000);
            return p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        }
    }
}
