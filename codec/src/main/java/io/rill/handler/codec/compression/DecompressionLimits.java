package io.rill.handler.codec.compression;

/**
 * The two bounds every decoder of this package applies, in one place so that they mean the same
 * for zlib, gzip, brotli, zstd, snappy and lz4 (docs/security-cases.md C-01, C-05, C-06): the
 * decompressed bytes of a stream, and the output bytes per compressed byte once the first
 * {@link ZlibDecoder#RATIO_GRACE_BYTES} have come out (a short message that compresses extremely
 * well is fine, a sustained expansion is a bomb).
 */
final class DecompressionLimits {

    private DecompressionLimits() {
    }

    /** Checks the constructor arguments shared by every decoder. */
    static void validate(long maxDecompressedBytes, int maxRatio) {
        if (maxDecompressedBytes <= 0) {
            throw new IllegalArgumentException("maxDecompressedBytes: " + maxDecompressedBytes + " (expected: > 0)");
        }
        if (maxRatio < 0) {
            throw new IllegalArgumentException("maxRatio: " + maxRatio + " (expected: >= 0, 0 for no limit)");
        }
    }

    /**
     * Fails if {@code totalOut} decompressed bytes from {@code totalIn} compressed ones pass a bound.
     *
     * @param format for the message: "GZIP", "zstd", ...
     * @throws DecompressionLimitException naming the bound that was passed
     */
    static void check(String format, long totalOut, long totalIn, long maxDecompressedBytes, int maxRatio) {
        if (totalOut > maxDecompressedBytes) {
            throw new DecompressionLimitException(format + " stream decompresses to more than the maximum of "
                    + maxDecompressedBytes + " bytes (maxDecompressedBytes)", "maxDecompressedBytes", maxDecompressedBytes);
        }
        if (maxRatio > 0 && totalOut >= ZlibDecoder.RATIO_GRACE_BYTES && totalOut / maxRatio > totalIn) {
            throw new DecompressionLimitException(format + " stream expands more than the maximum ratio of " + maxRatio
                    + " (maxRatio): " + totalOut + " bytes out of " + totalIn + " compressed", "maxRatio", maxRatio);
        }
    }

    /** The size of the next output buffer: one chunk, or one byte past the cap so passing it is seen. */
    static int nextChunkSize(long totalOut, long maxDecompressedBytes) {
        return (int) Math.min(ZlibDecoder.CHUNK_SIZE, maxDecompressedBytes - totalOut + 1);
    }
}
