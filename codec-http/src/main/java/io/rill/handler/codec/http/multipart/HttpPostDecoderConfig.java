package io.rill.handler.codec.http.multipart;

import java.nio.file.Path;

/**
 * Limits of an {@link HttpPostRequestDecoder}. Every byte the decoder keeps in memory is under
 * one of them: a form field (name and value together) or a part's header block is at most
 * {@code maxBufferedBytes}, there are at most {@code maxFields} of them, and a file keeps at most
 * {@code memoryThreshold} bytes in memory before it moves to disk (docs/security-cases.md,
 * case H1-07).
 *
 * @param maxFields        most fields and parts in one body (default 128); one more fails with 413
 * @param maxBufferedBytes most bytes of one field or one part's headers (default 64 KiB)
 * @param memoryThreshold  a file upload larger than this goes to a temporary file (default 16 KiB)
 * @param maxFileSize      most bytes of one uploaded file (default 1 GiB)
 * @param uploadParent     where the private upload directory is made; null for {@code java.io.tmpdir}
 */
public record HttpPostDecoderConfig(int maxFields, int maxBufferedBytes, int memoryThreshold, long maxFileSize,
                                    Path uploadParent) {

    /**
     * The defaults: 128 fields, 64 KiB per field, files on disk past 16 KiB, 1 GiB per file, uploads under
     * {@code java.io.tmpdir}.
     */
    public static final HttpPostDecoderConfig DEFAULT = new HttpPostDecoderConfig(128, 64 * 1024, 16 * 1024,
            1L << 30, null);

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException if a limit is out of range
     * @param maxFields        most fields and parts in one body; positive
     * @param maxBufferedBytes most bytes of one field or one part's headers; positive
     * @param memoryThreshold  the size past which a file upload goes to a temporary file; not negative
     * @param maxFileSize      most bytes of one uploaded file; not negative
     * @param uploadParent     where the private upload directory is made; null for {@code java.io.tmpdir}
     */
    public HttpPostDecoderConfig {
        if (maxFields < 1 || maxBufferedBytes < 1 || memoryThreshold < 0 || maxFileSize < 0) {
            throw new IllegalArgumentException("limits must be positive: " + maxFields + ", " + maxBufferedBytes
                    + ", " + memoryThreshold + ", " + maxFileSize);
        }
    }

    /**
     * A copy with another {@code maxFields}.
     *
     * @param n the most fields and parts in one body; positive
     * @return a new configuration
     */
    public HttpPostDecoderConfig withMaxFields(int n) {
        return new HttpPostDecoderConfig(n, maxBufferedBytes, memoryThreshold, maxFileSize, uploadParent);
    }

    /**
     * A copy with another {@code maxBufferedBytes}.
     *
     * @param n the most bytes of one field or one part's headers; positive
     * @return a new configuration
     */
    public HttpPostDecoderConfig withMaxBufferedBytes(int n) {
        return new HttpPostDecoderConfig(maxFields, n, memoryThreshold, maxFileSize, uploadParent);
    }

    /**
     * A copy with another {@code memoryThreshold}.
     *
     * @param n the size past which a file upload goes to a temporary file
     * @return a new configuration
     */
    public HttpPostDecoderConfig withMemoryThreshold(int n) {
        return new HttpPostDecoderConfig(maxFields, maxBufferedBytes, n, maxFileSize, uploadParent);
    }

    /**
     * A copy with another {@code maxFileSize}.
     *
     * @param n the most bytes of one uploaded file
     * @return a new configuration
     */
    public HttpPostDecoderConfig withMaxFileSize(long n) {
        return new HttpPostDecoderConfig(maxFields, maxBufferedBytes, memoryThreshold, n, uploadParent);
    }

    /**
     * A copy with another {@code uploadParent}.
     *
     * @param dir where the private upload directory is made; null for {@code java.io.tmpdir}
     * @return a new configuration
     */
    public HttpPostDecoderConfig withUploadParent(Path dir) {
        return new HttpPostDecoderConfig(maxFields, maxBufferedBytes, memoryThreshold, maxFileSize, dir);
    }
}
