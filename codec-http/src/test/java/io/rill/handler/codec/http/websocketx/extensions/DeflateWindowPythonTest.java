package io.rill.handler.codec.http.websocketx.extensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;

/**
 * The window-bits promise checked by another implementation: streams made for
 * {@code max_window_bits} N = 8..15 inflate with Python's zlib holding exactly a 2^N window, and
 * a control stream made with the full 32 KiB window fails with N &lt; 15, which shows the check
 * sees a back-reference that reaches too far. Skipped without python3, except in CI.
 */
class DeflateWindowPythonTest {

    @TempDir
    Path dir;

    @Test
    void streamsForEveryWindowInflateWithExactlyThatWindow() throws Exception {
        assumePython();
        List<String> args = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int bits = 8; bits <= 15; bits++) {
            byte[] data = farRepeats(bits);
            MessageDeflater deflater = new MessageDeflater(6, bits, false);
            ByteBuf in = Unpooled.wrappedBuffer(data);
            ByteBuf out = deflater.deflate(ByteBufAllocator.DEFAULT, in, true);
            args.addAll(files("w" + bits, bits, ByteBufUtil.getBytes(out), data));
            out.release();
            in.release();
            deflater.close();
            expected.add("ok " + bits);
        }
        for (int bits = 8; bits < 15; bits++) {
            byte[] data = farRepeats(bits);
            args.addAll(files("control" + bits, bits, fullWindow(data), data));
            expected.add("fail " + bits + ": Error -3 while decompressing data: invalid distance too far back");
        }
        assertEquals(expected, runPython(args));
    }

    /** Random letters, then the same again: each byte of the copy is 1.5 × 2^bits back, beyond the window. */
    private static byte[] farRepeats(int bits) {
        Random random = new Random(bits);
        int half = (1 << bits) * 3 / 2;
        byte[] data = new byte[2 * half + 500];
        for (int i = 0; i < half; i++) {
            data[i] = (byte) ('a' + random.nextInt(26));
        }
        System.arraycopy(data, 0, data, half, half);
        for (int i = 2 * half; i < data.length; i++) {
            data[i] = (byte) "near repeats ".charAt(i % 13);
        }
        return data;
    }

    private static byte[] fullWindow(byte[] data) {
        Deflater d = new Deflater(6, true);
        byte[] out = PerMessageDeflateDecoderTest.deflate(d, data, Deflater.SYNC_FLUSH);
        d.end();
        return java.util.Arrays.copyOf(out, out.length - 4);
    }

    private List<String> files(String name, int bits, byte[] compressed, byte[] data) throws IOException {
        Path c = Files.write(dir.resolve(name + ".deflate"), compressed);
        Path d = Files.write(dir.resolve(name + ".data"), data);
        return List.of(Integer.toString(bits), c.toString(), d.toString());
    }

    private List<String> runPython(List<String> args) throws Exception {
        Path script = dir.resolve("inflate_window.py");
        try (InputStream in = getClass().getResourceAsStream("inflate_window.py")) {
            Files.copy(in, script);
        }
        List<String> command = new ArrayList<>(List.of("python3", script.toString()));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "python finished");
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }

    private static void assumePython() {
        boolean present;
        try {
            Process p = new ProcessBuilder("python3", "-c", "import zlib").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            present = false;
        }
        assertTrue(present || !"true".equals(System.getenv("CI")), "CI must have python3");
        assumeTrue(present, "python3 is not installed");
    }
}
