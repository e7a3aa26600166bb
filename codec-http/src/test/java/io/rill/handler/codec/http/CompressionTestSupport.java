package io.rill.handler.codec.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * gzip and deflate with the JDK's streams, br and zstd with the libraries' own streams:
 * independent of the code under test.
 */
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

    /** Brotli at quality 5 through brotli4j's own stream. */
    static byte[] br(byte[] data) {
        com.aayushatharva.brotli4j.Brotli4jLoader.ensureAvailability();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        com.aayushatharva.brotli4j.encoder.Encoder.Parameters params =
                new com.aayushatharva.brotli4j.encoder.Encoder.Parameters().setQuality(5);
        try (OutputStream b = new com.aayushatharva.brotli4j.encoder.BrotliOutputStream(out, params)) {
            b.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** One zstd frame at level 3 through zstd-jni's own stream. */
    static byte[] zstd(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new com.github.luben.zstd.ZstdOutputStream(out, 3)) {
            z.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] unbr(byte[] data) {
        com.aayushatharva.brotli4j.Brotli4jLoader.ensureAvailability();
        return readAll(() -> new com.aayushatharva.brotli4j.decoder.BrotliInputStream(new ByteArrayInputStream(data)));
    }

    static byte[] unzstd(byte[] data) {
        return readAll(() -> new com.github.luben.zstd.ZstdInputStream(new ByteArrayInputStream(data)));
    }

    /** Encodes with one coding named by its token. */
    static byte[] encode(String coding, byte[] data) {
        return switch (coding) {
            case "gzip", "x-gzip" -> gzip(data);
            case "deflate", "x-deflate" -> deflate(data, false);
            case "deflate-raw" -> deflate(data, true);
            case "br" -> br(data);
            case "zstd" -> zstd(data);
            default -> data;
        };
    }

    /** Decodes one coding named by its token; null or identity returns {@code data}. */
    static byte[] decode(String coding, byte[] data) {
        if (coding == null) {
            return data;
        }
        return switch (coding) {
            case "gzip" -> gunzip(data);
            case "deflate" -> inflate(data);
            case "br" -> unbr(data);
            case "zstd" -> unzstd(data);
            default -> data;
        };
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
