package io.rill.handler.codec.compression;

import io.rill.handler.codec.DecoderException;

/**
 * Compressed input could not be decompressed: it is malformed, fails its checksum, or expands
 * beyond the decoder's bound on decompressed bytes (a decompression bomb). The decoder drops
 * all later input of the stream.
 */
public class DecompressionException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what went wrong, quoting the input where there is one
     */
    public DecompressionException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its message and cause.
     *
     * @param message what went wrong
     * @param cause   the failure behind it
     */
    public DecompressionException(String message, Throwable cause) {
        super(message, cause);
    }
}
