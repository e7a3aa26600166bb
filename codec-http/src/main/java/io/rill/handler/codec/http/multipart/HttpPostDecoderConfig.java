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

    public static final HttpPostDecoderConfig DEFAULT = new HttpPostDecoderConfig(128, 64 * 1024, 16 * 1024,
            1L << 30, null);

    public HttpPostDecoderConfig {
        if (maxFields < 1 || maxBufferedBytes < 1 || memoryThreshold < 0 || maxFileSize < 0) {
            throw new IllegalArgumentException("limits must be positive: " + maxFields + ", " + maxBufferedBytes
                    + ", " + memoryThreshold + ", " + maxFileSize);
        }
    }

    public HttpPostDecoderConfig withMaxFields(int n) {
        return new HttpPostDecoderConfig(n, maxBufferedBytes, memoryThreshold, maxFileSize, uploadParent);
    }

    public HttpPostDecoderConfig withMaxBufferedBytes(int n) {
        return new HttpPostDecoderConfig(maxFields, n, memoryThreshold, maxFileSize, uploadParent);
    }

    public HttpPostDecoderConfig withMemoryThreshold(int n) {
        return new HttpPostDecoderConfig(maxFields, maxBufferedBytes, n, maxFileSize, uploadParent);
    }

    public HttpPostDecoderConfig withMaxFileSize(long n) {
        return new HttpPostDecoderConfig(maxFields, maxBufferedBytes, memoryThreshold, n, uploadParent);
    }

    public HttpPostDecoderConfig withUploadParent(Path dir) {
        return new HttpPostDecoderConfig(maxFields, maxBufferedBytes, memoryThreshold, maxFileSize, dir);
    }
}
