package io.rill.handler.codec.http;

/**
 * Limits and switches of the HTTP decoders. The defaults are strict and bounded: a 4096-byte
 * start line, 8192 bytes of header fields in total (names, values and line ends), body pieces of
 * at most 8192 bytes, and a {@code Host} field required exactly once in HTTP/1.1 requests.
 *
 * @param maxInitialLineLength the longest request or status line, CRLF excluded
 * @param maxHeaderSize        the largest header section (or trailer section), all lines counted
 * @param maxChunkSize         the largest {@link HttpContent} the decoder emits; bigger bodies come in pieces
 * @param requireHost          reject HTTP/1.1 requests without exactly one {@code Host} (RFC 9112 §3.2)
 */
public record HttpDecoderConfig(int maxInitialLineLength, int maxHeaderSize, int maxChunkSize, boolean requireHost) {

    /**
     * The strict defaults: 4096-byte start line, 8192 bytes of headers, 8192-byte body pieces, {@code Host}
     * required.
     */
    public static final HttpDecoderConfig DEFAULT = new HttpDecoderConfig(4096, 8192, 8192, true);

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException if a limit is not positive
     * @param maxInitialLineLength the longest request or status line, CRLF excluded; positive
     * @param maxHeaderSize        the largest header or trailer section, all lines counted; positive
     * @param maxChunkSize         the largest {@link HttpContent} the decoder emits; positive
     * @param requireHost          whether HTTP/1.1 requests need exactly one {@code Host}
     */
    public HttpDecoderConfig {
        if (maxInitialLineLength <= 0 || maxHeaderSize <= 0 || maxChunkSize <= 0) {
            throw new IllegalArgumentException("limits must be positive: initial line " + maxInitialLineLength
                    + ", headers " + maxHeaderSize + ", chunk " + maxChunkSize);
        }
    }

    /**
     * A copy with another {@code maxInitialLineLength}.
     *
     * @param n the longest request or status line; positive
     * @return a new configuration
     */
    public HttpDecoderConfig withMaxInitialLineLength(int n) {
        return new HttpDecoderConfig(n, maxHeaderSize, maxChunkSize, requireHost);
    }

    /**
     * A copy with another {@code maxHeaderSize}.
     *
     * @param n the largest header section; positive
     * @return a new configuration
     */
    public HttpDecoderConfig withMaxHeaderSize(int n) {
        return new HttpDecoderConfig(maxInitialLineLength, n, maxChunkSize, requireHost);
    }

    /**
     * A copy with another {@code maxChunkSize}.
     *
     * @param n the largest body piece emitted; positive
     * @return a new configuration
     */
    public HttpDecoderConfig withMaxChunkSize(int n) {
        return new HttpDecoderConfig(maxInitialLineLength, maxHeaderSize, n, requireHost);
    }

    /**
     * A copy with another {@code requireHost}.
     *
     * @param require whether HTTP/1.1 requests need exactly one {@code Host}
     * @return a new configuration
     */
    public HttpDecoderConfig withRequireHost(boolean require) {
        return new HttpDecoderConfig(maxInitialLineLength, maxHeaderSize, maxChunkSize, require);
    }
}
