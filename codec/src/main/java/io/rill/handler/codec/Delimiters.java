package io.rill.handler.codec;

/** Delimiter sets for {@link DelimiterBasedFrameDecoder}; each call returns fresh arrays. */
public final class Delimiters {

    private Delimiters() {
    }

    /**
     * A single NUL byte, as ending frames in Flash XML sockets and STOMP.
     *
     * @return a new array holding the one delimiter, which the caller may change
     */
    public static byte[][] nulDelimiter() {
        return new byte[][] {{0}};
    }

    /**
     * {@code \r\n} and {@code \n}: text lines in either convention.
     *
     * @return a new array holding the two delimiters, {@code \r\n} first
     */
    public static byte[][] lineDelimiter() {
        return new byte[][] {{'\r', '\n'}, {'\n'}};
    }
}
