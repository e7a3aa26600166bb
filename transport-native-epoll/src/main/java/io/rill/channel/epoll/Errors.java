package io.rill.channel.epoll;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;

/**
 * The one place where a negative {@link Native} result, {@code -errno}, becomes an exception:
 * a {@link NativeIoException} whose message is the operation plus {@code strerror(errno)}, or for
 * a failed connect or bind a {@link ConnectException} or {@link BindException} naming the address
 * (what NIO users catch).
 *
 * <p>The errno values the transport branches on are Linux's generic ones (x86_64, aarch64 and
 * every architecture but alpha, mips, parisc and sparc, which the build does not target).
 */
final class Errors {

    static final int EBADF = 9;
    static final int EAGAIN = 11;
    static final int ENOTCONN = 107;
    static final int ECONNRESET = 104;
    static final int EINPROGRESS = 115;
    static final int EADDRNOTAVAIL = 99;

    private Errors() {
    }

    /** {@code result} itself if it is not negative, else throws what {@code -result} means. */
    static int check(String operation, int result) throws IOException {
        if (result < 0) {
            throw newException(operation, -result);
        }
        return result;
    }

    static long check(String operation, long result) throws IOException {
        if (result < 0) {
            throw newException(operation, (int) -result);
        }
        return result;
    }

    /** The exception for {@code errno}: EBADF means our descriptor is closed, the rest says what the system says. */
    static IOException newException(String operation, int errno) {
        if (errno == EBADF) {
            ClosedChannelException closed = new ClosedChannelException();
            closed.initCause(new NativeIoException(operation + "(..) failed: " + Native.strerror(errno), errno));
            return closed;
        }
        return new NativeIoException(operation + "(..) failed: " + Native.strerror(errno), errno);
    }

    /** A bind to {@code local} failed with {@code errno}: a BindException "Address already in use: /127.0.0.1:80". */
    static IOException newBindException(int errno, SocketAddress local) {
        if (errno == EBADF) {
            return newException("bind", errno);
        }
        BindException e = new BindException(Native.strerror(errno) + ": " + local);
        e.initCause(new NativeIoException("bind(..) failed: " + Native.strerror(errno), errno));
        return e;
    }

    /** A connect to {@code remote} failed with {@code errno}: "Connection refused: /127.0.0.1:4242". */
    static ConnectException newConnectException(int errno, SocketAddress remote) {
        ConnectException e = new ConnectException(Native.strerror(errno) + ": " + remote);
        e.initCause(new NativeIoException("connect(..) failed: " + Native.strerror(errno), errno));
        return e;
    }
}
