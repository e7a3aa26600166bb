package io.rill.channel.epoll;

import java.nio.ByteBuffer;

/**
 * The JNI boundary, registered by the library's {@code JNI_OnLoad}: file descriptors, native
 * addresses and small arrays in, {@code int}/{@code long} out, and a negative result is
 * {@code -errno} (see {@link Errors}). Nothing here allocates Java objects per call except
 * {@link #strerror}, which only runs on the error path. Only {@link Epoll} loads the library;
 * everything else touches this class after {@link Epoll#ensureAvailability()}.
 */
final class Native {

    // epoll_event flags: Linux's uapi values, the same on every architecture.
    static final int EPOLLIN = 0x001;
    static final int EPOLLOUT = 0x004;
    static final int EPOLLERR = 0x008;
    static final int EPOLLHUP = 0x010;
    static final int EPOLLRDHUP = 0x2000;
    static final int EPOLLET = 1 << 31;

    static final int EPOLL_CTL_ADD = 1;
    static final int EPOLL_CTL_DEL = 2;
    static final int EPOLL_CTL_MOD = 3;

    // Socket option ids: indexes into rill_socket.c's table, in its order.
    static final int OPT_SO_KEEPALIVE = 0;
    static final int OPT_SO_RCVBUF = 1;
    static final int OPT_SO_SNDBUF = 2;
    static final int OPT_SO_REUSEADDR = 3;
    static final int OPT_SO_REUSEPORT = 4;
    static final int OPT_SO_BROADCAST = 5;
    static final int OPT_IP_TOS = 6;
    static final int OPT_TCP_NODELAY = 7;
    static final int OPT_TCP_CORK = 8;
    static final int OPT_TCP_NOTSENT_LOWAT = 9;
    static final int OPT_TCP_QUICKACK = 10;
    static final int OPT_TCP_KEEPIDLE = 11;
    static final int OPT_TCP_KEEPINTVL = 12;
    static final int OPT_TCP_KEEPCNT = 13;
    static final int OPT_TCP_USER_TIMEOUT = 14;
    static final int OPT_TCP_FASTOPEN = 15;
    static final int OPT_TCP_FASTOPEN_CONNECT = 16;
    static final int OPT_IP_FREEBIND = 17;
    static final int OPT_IP_TRANSPARENT = 18;
    static final int OPT_IP_MULTICAST_TTL = 19;
    static final int OPT_IP_MULTICAST_LOOP = 20;

    private Native() {
    }

    // rill_jni.c
    static native long bufferAddress(ByteBuffer directBuffer);

    static native String strerror(int errno);

    static native int epollEventSize();

    static native int epollDataOffset();

    // rill_epoll.c
    static native int epollCreate();

    /** Registers {@code fd} with data {@code (id << 32) | fd}. */
    static native int epollCtl(int epfd, int op, int fd, int events, int id);

    /** Ready events into {@code eventsAddress}; 0 on timeout or EINTR. */
    static native int epollWait(int epfd, long eventsAddress, int maxEvents, int timeoutMillis);

    static native int eventFd();

    static native int eventFdSignal(int fd);

    static native int eventFdDrain(int fd);

    // rill_socket.c
    static native int socketStream(boolean ipv6);

    static native int bind(int fd, boolean ipv6, byte[] address, int port, int scopeId);

    /** 0 if connected at once, {@code -EINPROGRESS} while in flight. */
    static native int connect(int fd, boolean ipv6, byte[] address, int port, int scopeId);

    static native int finishConnect(int fd);

    static native int listen(int fd, int backlog);

    /** An accepted descriptor; its peer goes into {@code peer} (23 bytes: the 22 of {@link #localAddress}, then the length). */
    static native int accept(int fd, byte[] peer);

    /** Fills {@code out} (22 bytes, see rill_socket.c); returns 4 or 16, 0 if not IP. */
    static native int localAddress(int fd, byte[] out);

    static native int remoteAddress(int fd, byte[] out);

    static native int shutdown(int fd, boolean input, boolean output);

    static native int close(int fd);

    /** The value (≥ 0) or -errno. */
    static native long getOption(int fd, int option);

    static native int setOption(int fd, int option, int value);

    /** {@code (on << 32) | seconds} or -errno. */
    static native long getLinger(int fd);

    static native int setLinger(int fd, int seconds);

    /** Fills {@code out} with TCP_INFO fields in {@link TcpInfo}'s order; returns how many. */
    static native int tcpInfo(int fd, long[] out);

    static native boolean isIpv6Supported();

    // rill_io.c
    static native int read(int fd, long address, int length);

    static native int write(int fd, long address, int length);

    static native long writev(int fd, long iovAddress, int count);

    static native int openReadOnly(String path);

    static native long sendfile(int outFd, int inFd, long offset, long count);

    static native int iovSize();

    static native int iovMax();

    // rill_unix.c
    /** {@link #recvFd}: a descriptor arrived (in the low 32 bits). */
    static final long FD_RECEIVED = 1L << 32;
    /** {@link #recvFd}: a byte arrived without a descriptor. */
    static final long NO_FD = 1L << 33;

    static native int socketDomain();

    static native int bindDomain(int fd, byte[] path);

    static native int connectDomain(int fd, byte[] path);

    /** The local or peer path into {@code out} (108 bytes); its length, 0 if unnamed. */
    static native int domainAddress(int fd, boolean local, byte[] out);

    static native int sendFd(int fd, int fdToSend);

    /** {@code FD_RECEIVED | fd}, 0 at end of stream, {@code NO_FD}, or -errno. */
    static native long recvFd(int fd);

    /** Fills {@code out} with pid, uid, gid. */
    static native int peerCredentials(int fd, int[] out);

    // rill_datagram.c: batch layouts are drawn there and in EpollDatagramChannel
    static native int socketDgram(boolean ipv6);

    /** Receives up to {@code count} datagrams described at {@code in}, results at {@code out}; how many, or -errno. */
    static native int recvmmsg(int fd, long in, long out, int count);

    /** Sends up to {@code count} datagrams described at {@code in}; how many went, or -errno. */
    static native int sendmmsg(int fd, boolean ipv6, long in, int count);

    static native int disconnect(int fd);

    /** Joins ({@code join}) or leaves {@code group} (4 or 16 bytes) on interface {@code ifindex}. */
    static native int membership(int fd, boolean join, byte[] group, int ifindex);
}
