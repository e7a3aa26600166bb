package io.rill.handler.codec.compression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Python's {@code python-snappy} (its framing format) and {@code lz4.frame} (installed by .ci/run)
 * decode what Rill encodes, and Rill decodes what they encode. Skips where they are missing, except
 * in CI, where it fails. Python's lz4 links blocks by default, which lz4-java cannot decode: it is
 * asked for independent blocks ({@code block_linked=False}), with both checksums and the content size.
 */
class SnappyLz4PythonInteropTest {

    private static final String MODULES = "import sys, snappy, lz4.frame\n";

    private static boolean pythonHasModules() {
        try {
            Process p = new ProcessBuilder("python3", "-c", MODULES).redirectErrorStream(true).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static void python(String script, Path dir) throws Exception {
        Process p = new ProcessBuilder("python3", "-c", MODULES + script).directory(dir.toFile())
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "python3 timed out");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
    }

    private static byte[] drain(EmbeddedChannel ch, boolean inbound) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = inbound ? ch.readInbound() : ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"snappy", "lz4"})
    void pythonAndRillReadEachOther(String coding, @TempDir Path dir) throws Exception {
        boolean present = pythonHasModules();
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("python3 with python-snappy and lz4 is missing in CI (.ci/run installs them)");
        }
        assumeTrue(present, "python3 with python-snappy and lz4 is not installed (.ci/run installs them)");
        boolean sn = coding.equals("snappy");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < 100_000; i++) {
            sb.append("{\"id\":").append(i).append(",\"name\":\"user").append(i % 97).append("\"},\n");
        }
        byte[] data = sb.toString().getBytes(StandardCharsets.US_ASCII);
        Files.write(dir.resolve("data"), data);

        EmbeddedChannel enc = new EmbeddedChannel((ChannelHandler) (sn ? new SnappyFrameEncoder() : new Lz4FrameEncoder()));
        enc.writeOutbound(Unpooled.wrappedBuffer(data, 0, 40_000));
        enc.writeOutbound(Unpooled.wrappedBuffer(data, 40_000, data.length - 40_000));
        enc.finish();
        Files.write(dir.resolve("rill"), drain(enc, false));
        String decode = sn ? "out = snappy.StreamDecompressor().decompress(open('rill','rb').read())\n"
                : "out = lz4.frame.decompress(open('rill','rb').read())\n";
        String encode = sn ? "open('py','wb').write(snappy.StreamCompressor().compress(open('data','rb').read()))\n"
                : "open('py','wb').write(lz4.frame.compress(open('data','rb').read(), block_linked=False,"
                        + " block_checksum=True, content_checksum=True, store_size=True))\n";
        python(decode + encode + "sys.exit(0 if out == open('data','rb').read() else 1)\n", dir);

        EmbeddedChannel dec = new EmbeddedChannel((ChannelHandler) (sn ? new SnappyFrameDecoder() : new Lz4FrameDecoder()));
        dec.writeInbound(Unpooled.wrappedBuffer(Files.readAllBytes(dir.resolve("py"))));
        dec.finish();
        assertArrayEquals(data, drain(dec, true));
    }
}
