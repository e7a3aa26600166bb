package io.rill.channel.epoll;

import java.io.IOException;

/**
 * A system call of the epoll transport failed: {@link #errno()} is the error number and the
 * message the system's text for it ({@code "Connection reset by peer"}), prefixed with the
 * operation. Made only by {@link Errors}.
 */
public final class NativeIoException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The positive {@code errno} the call failed with. */
    private final int errno;

    NativeIoException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    /** {@return the positive {@code errno} value, e.g. 104 ({@code ECONNRESET}) on Linux x86_64} */
    public int errno() {
        return errno;
    }
}
