package io.rill.handler.codec.compression;

/**
 * A stream would decompress beyond one of its decoder's bounds (a decompression bomb): more bytes
 * than {@code maxDecompressedBytes}, or more than {@code maxRatio} bytes out per byte in. The
 * message and {@link #limitName()} say which bound, {@link #limit()} its value.
 */
public class DecompressionLimitException extends DecompressionException {
    private static final long serialVersionUID = 1L;

    /** The name of the bound that was hit. */
    private final String limitName;
    /** The value of the bound that was hit. */
    private final long limit;

    /**
     * Creates the exception.
     *
     * @param message   what was hit, with the numbers
     * @param limitName the name of the bound, as the decoder's constructor calls it
     * @param limit     the value of the bound
     */
    public DecompressionLimitException(String message, String limitName, long limit) {
        super(message);
        this.limitName = limitName;
        this.limit = limit;
    }

    /**
     * The name of the bound that was hit, as the decoder's constructor calls it ({@code maxRatio}, ...).
     *
     * @return the bound's name, e.g. {@code maxDecompressedBytes}
     */
    public String limitName() {
        return limitName;
    }

    /**
     * The value of that bound.
     *
     * @return the bound's value
     */
    public long limit() {
        return limit;
    }
}
