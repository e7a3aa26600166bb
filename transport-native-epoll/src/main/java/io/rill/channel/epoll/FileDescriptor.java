package io.rill.channel.epoll;

import java.io.Closeable;
import java.io.IOException;

/**
 * A descriptor passed over a Unix-domain socket ({@code SCM_RIGHTS}): write one to an
 * {@link EpollDomainSocketChannel} to send a copy of it; with
 * {@link EpollChannelOption#DOMAIN_READ_FILE_DESCRIPTORS} the channel reads these instead of
 * bytes. Received descriptors are close-on-exec and belong to whoever receives the message:
 * close them. Sending does not close the sender's one.
 */
public final class FileDescriptor implements Closeable {

    private final int fd;
    private volatile boolean open = true;

    /**
     * Wraps {@code fd}, which must be open; its owner closes it through this object or elsewhere.
     *
     * @param fd the descriptor number, not negative
     * @throws IllegalArgumentException if {@code fd} is negative
     */
    public FileDescriptor(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("fd: " + fd + " (expected: >= 0)");
        }
        this.fd = fd;
    }

    /** {@return the descriptor number} */
    public int intValue() {
        return fd;
    }

    /** {@return true until {@link #close()} was called} */
    public boolean isOpen() {
        return open;
    }

    /** Closes the descriptor once; later calls do nothing. */
    @Override
    public void close() throws IOException {
        boolean wasOpen;
        synchronized (this) {
            wasOpen = open;
            open = false;
        }
        if (wasOpen) {
            Epoll.ensureAvailability();
            Errors.check("close", Native.close(fd));
        }
    }

    @Override
    public String toString() {
        return "FileDescriptor(" + fd + (open ? ")" : ", closed)");
    }
}
