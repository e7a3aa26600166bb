package io.rill.channel.epoll;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.nio.charset.StandardCharsets;

/**
 * A non-blocking, close-on-exec stream socket descriptor, TCP or Unix-domain, and its system
 * calls, each turning {@code -errno} into an exception through {@link Errors}. TCP sockets are
 * IPv6 (dual-stack) when the kernel has it, so one socket reaches IPv4 and IPv6 peers, as the
 * JDK's sockets do; Unix-domain ones are bound and connected by path.
 *
 * <p>Closing is idempotent and thread-safe: the first {@link #close()} releases the descriptor;
 * after it {@link #fd()} still returns the old number, but nothing here uses it again.
 */
final class LinuxSocket {

    static final boolean IPV6 = Native.isIpv6Supported();

    private final int fd;
    private final boolean ipv6;
    private final boolean unix;
    private volatile boolean open = true;

    private LinuxSocket(int fd, boolean ipv6, boolean unix) {
        this.fd = fd;
        this.ipv6 = ipv6;
        this.unix = unix;
    }

    /** A new TCP socket. */
    static LinuxSocket newStream() throws IOException {
        return new LinuxSocket(Errors.check("socket", Native.socketStream(IPV6)), IPV6, false);
    }

    /** A new Unix-domain stream socket. */
    static LinuxSocket newDomain() throws IOException {
        return new LinuxSocket(Errors.check("socket", Native.socketDomain()), false, true);
    }

    /** A new UDP socket, IPv6 (dual-stack) or IPv4. */
    static LinuxSocket newDatagram(boolean ipv6) throws IOException {
        return new LinuxSocket(Errors.check("socket", Native.socketDgram(ipv6)), ipv6, false);
    }

    /** An accepted socket: the listening socket's family. */
    LinuxSocket accepted(int acceptedFd) {
        return new LinuxSocket(acceptedFd, ipv6, unix);
    }

    int fd() {
        return fd;
    }

    /** True for a Unix-domain socket. */
    boolean isUnix() {
        return unix;
    }

    /** True for an IPv6 (dual-stack) socket. */
    boolean isIpv6() {
        return ipv6;
    }

    /** Dissolves a UDP connect. */
    void disconnect() throws IOException {
        Errors.check("connect(AF_UNSPEC)", Native.disconnect(fd));
    }

    /** Joins or leaves a multicast group on an interface (null: the kernel picks). */
    void membership(boolean join, InetAddress group, java.net.NetworkInterface nif) throws IOException {
        Errors.check(join ? "setsockopt(ADD_MEMBERSHIP)" : "setsockopt(DROP_MEMBERSHIP)",
                Native.membership(fd, join, group.getAddress(), nif == null ? 0 : nif.getIndex()));
    }

    boolean isOpen() {
        return open;
    }

    void close() throws IOException {
        boolean wasOpen;
        synchronized (this) {
            wasOpen = open;
            open = false;
        }
        if (wasOpen) {
            Errors.check("close", Native.close(fd));
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    void bind(SocketAddress local) throws IOException {
        ensureOpen();
        int result;
        if (unix) {
            result = Native.bindDomain(fd, path(local));
        } else {
            InetSocketAddress address = resolved(local);
            result = Native.bind(fd, ipv6, address.getAddress().getAddress(), address.getPort(), scopeId(address));
        }
        if (result < 0) {
            throw Errors.newBindException(-result, local);
        }
    }

    void listen(int backlog) throws IOException {
        Errors.check("listen", Native.listen(fd, backlog));
    }

    /** True if connected at once, false if in progress (finish on write readiness). */
    boolean connect(SocketAddress remote) throws IOException {
        ensureOpen();
        if (unix) {
            int r = Native.connectDomain(fd, path(remote));
            if (r < 0) {
                throw Errors.newConnectException(-r, remote);
            }
            return true;
        }
        InetSocketAddress address = resolved(remote);
        int r = Native.connect(fd, ipv6, address.getAddress().getAddress(), address.getPort(), scopeId(address));
        if (r == -Errors.EINPROGRESS) {
            return false;
        }
        if (r < 0) {
            throw Errors.newConnectException(-r, remote);
        }
        return true;
    }

    /** Completes an in-progress connect: throws its error, if any. */
    void finishConnect(SocketAddress remote) throws IOException {
        int r = Native.finishConnect(fd);
        if (r < 0) {
            throw Errors.newConnectException(-r, remote);
        }
    }

    /** An accepted descriptor, or -1 when none is pending; its peer's address goes into {@code peer} (23 bytes). */
    int accept(byte[] peer) throws IOException {
        int r = Native.accept(fd, peer);
        return r == -Errors.EAGAIN ? -1 : Errors.check("accept", r);
    }

    void shutdown(boolean input, boolean output) throws IOException {
        int r = Native.shutdown(fd, input, output);
        if (r != -Errors.ENOTCONN) { // already reset by the peer: that direction is shut either way
            Errors.check("shutdown", r);
        }
    }

    SocketAddress localAddress() {
        return !open ? null : unix ? domainAddress(true) : address(true);
    }

    SocketAddress remoteAddress() {
        return !open ? null : unix ? domainAddress(false) : address(false);
    }

    /** The path; an unnamed socket (a client's own end) has the empty path, as in the JDK. */
    private UnixDomainSocketAddress domainAddress(boolean local) {
        byte[] out = new byte[108];
        int len = Native.domainAddress(fd, local, out);
        return len < 0 ? null : UnixDomainSocketAddress.of(new String(out, 0, len, StandardCharsets.UTF_8));
    }

    private InetSocketAddress address(boolean local) {
        byte[] out = new byte[22];
        int len = local ? Native.localAddress(fd, out) : Native.remoteAddress(fd, out);
        if (len <= 0) {
            return null; // not bound or connected, or closed meanwhile
        }
        return decode(out, len);
    }

    /** An address in the layout of rill_socket.c (22 bytes: address, port, scope id) of length 4 or 16. */
    static InetSocketAddress decode(byte[] out, int len) {
        int port = ((out[16] & 0xFF) << 8) | (out[17] & 0xFF);
        int scope = ((out[18] & 0xFF) << 24) | ((out[19] & 0xFF) << 16) | ((out[20] & 0xFF) << 8) | (out[21] & 0xFF);
        byte[] ip = java.util.Arrays.copyOf(out, len);
        try {
            InetAddress address = len == 16 && scope != 0
                    ? Inet6Address.getByAddress(null, ip, scope) : InetAddress.getByAddress(ip);
            return new InetSocketAddress(address, port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("the kernel returned a " + len + "-byte address", e);
        }
    }

    /** An IPv4 address and port packed into a long ({@code address << 16 | port}), or -1 if {@code out} holds another kind. */
    static long packIpv4(byte[] out, int len) {
        if (len != 4) {
            return -1;
        }
        long ip = ((out[0] & 0xFFL) << 24) | ((out[1] & 0xFF) << 16) | ((out[2] & 0xFF) << 8) | (out[3] & 0xFF);
        return ip << 16 | ((out[16] & 0xFF) << 8) | (out[17] & 0xFF);
    }

    /** The address {@link #packIpv4} packed. */
    static InetSocketAddress unpackIpv4(long packed) {
        byte[] ip = {(byte) (packed >>> 40), (byte) (packed >>> 32), (byte) (packed >>> 24), (byte) (packed >>> 16)};
        try {
            return new InetSocketAddress(InetAddress.getByAddress(ip), (int) (packed & 0xFFFF));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // never: four bytes are always an IPv4 address
        }
    }

    // Options may be read from any thread: the open check keeps a closed socket's number, which
    // the kernel may already have given to another file, from being asked (up to a narrow race).

    int getInt(int option) throws IOException {
        ensureOpen();
        return (int) Errors.check("getsockopt", Native.getOption(fd, option));
    }

    void setInt(int option, int value) throws IOException {
        ensureOpen();
        Errors.check("setsockopt", Native.setOption(fd, option, value));
    }

    /** SO_LINGER in seconds, -1 when off. */
    int getLinger() throws IOException {
        ensureOpen();
        long r = Errors.check("getsockopt", Native.getLinger(fd));
        return (r >>> 32) != 0 ? (int) r : -1;
    }

    void setLinger(int seconds) throws IOException {
        ensureOpen();
        Errors.check("setsockopt", Native.setLinger(fd, seconds));
    }

    private static byte[] path(SocketAddress address) {
        if (!(address instanceof UnixDomainSocketAddress domain)) {
            throw new UnsupportedAddressTypeException();
        }
        return domain.getPath().toString().getBytes(StandardCharsets.UTF_8);
    }

    private static InetSocketAddress resolved(SocketAddress address) {
        if (!(address instanceof InetSocketAddress inet)) {
            throw new UnsupportedAddressTypeException();
        }
        if (inet.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        return inet;
    }

    private static int scopeId(InetSocketAddress address) {
        return address.getAddress() instanceof Inet6Address v6 ? v6.getScopeId() : 0;
    }

    @Override
    public String toString() {
        return "fd " + fd + (open ? "" : " (closed)");
    }
}
