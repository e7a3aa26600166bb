package io.rill.handler.codec.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;

/** gzip and deflate with the JDK's streams, independent of the code under test. */
final class CompressionTestSupport {

    private CompressionTestSupport() {
    }

    static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** zlib (RFC 1950) unless {@code raw}, then bare DEFLATE (RFC 1951). */
    static byte[] deflate(byte[] data, boolean raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, raw);
        try (DeflaterOutputStream d = new DeflaterOutputStream(out, deflater)) {
            d.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
        return out.toByteArray();
    }

    static byte[] gunzip(byte[] data) {
        return readAll(() -> new GZIPInputStream(new ByteArrayInputStream(data)));
    }

    static byte[] inflate(byte[] data) {
        return readAll(() -> new InflaterInputStream(new ByteArrayInputStream(data)));
    }

    /** Text that compresses well but not absurdly: repeated lines with a counter. */
    static byte[] text(int size) {
        StringBuilder sb = new StringBuilder(size + 64);
        for (int i = 0; sb.length() < size; i++) {
            sb.append("line ").append(i).append(": the quick brown fox jumps over the lazy dog\n");
        }
        return sb.substring(0, size).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Bytes that do not compress. */
    static byte[] noise(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private interface Opener {
        InputStream open() throws IOException;
    }

    private static byte[] readAll(Opener opener) {
        try (InputStream in = opener.open()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
