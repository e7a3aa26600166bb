package io.rill.channel.epoll;

import java.io.IOException;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;

import io.rill.channel.Channel;
import io.rill.channel.ChannelOption;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.internal.AcceptLoop;
import io.rill.channel.socket.ServerSocketChannel;
import io.rill.util.InternalLogger;

/**
 * A listening TCP socket (or Unix-domain, see {@link EpollServerDomainSocketChannel}). Each
 * accept readiness accepts ({@code accept4} with {@code SOCK_NONBLOCK | SOCK_CLOEXEC}, so no
 * descriptor leaks into a child process) up to {@code MAX_MESSAGES_PER_READ} connections and
 * fires each as {@code channelRead} of an unregistered {@link EpollSocketChannel} on the next
 * loop of the child group, in this server's {@link EpollMode}.
 *
 * <p>Bursts and the pause after an accept error (EMFILE, ...) are {@link AcceptLoop}'s. With
 * {@code SO_REUSEPORT} set before bind, several servers (one per loop) can share a port. A TCP
 * server sets {@code SO_REUSEADDR} unless {@code ChannelOption.SO_REUSEADDR} is false, like NIO's,
 * so it binds again on a port whose old connections are in TIME_WAIT.
 */
public class EpollServerSocketChannel extends AbstractEpollChannel implements ServerSocketChannel {

    private static final InternalLogger LOG = InternalLogger.get(EpollServerSocketChannel.class);

    private final EventLoopGroup childGroup;
    private final EpollServerSocketChannelConfig config;
    /** The bound address; null before bind. Written on the loop, read anywhere. */
    private volatile SocketAddress boundAddress;
    /** Accept bursts and the pause after an accept error. */
    private final AcceptLoop accepts;
    /** The last accepted peer's address, filled by accept (see Native.accept); loop-confined scratch. */
    private final byte[] acceptedPeer = new byte[23];

    /**
     * A server whose children live on {@code loop} as well.
     *
     * @param loop the event loop of the listening socket and its children
     */
    public EpollServerSocketChannel(EventLoop loop) {
        this(loop, loop);
    }

    /**
     * A server whose children are spread over {@code childGroup}.
     *
     * @param loop the event loop of the listening socket
     * @param childGroup the group whose loops accepted channels are spread over
     */
    public EpollServerSocketChannel(EventLoop loop, EventLoopGroup childGroup) {
        this(loop, childGroup, false);
    }

    /** A TCP or ({@code unix}) a Unix-domain server. */
    EpollServerSocketChannel(EventLoop loop, EventLoopGroup childGroup, boolean unix) {
        super(null, loop, EpollSocketChannel.newSocket(unix));
        if (childGroup == null) {
            close();
            throw new NullPointerException("childGroup");
        }
        this.childGroup = childGroup;
        this.config = new EpollServerSocketChannelConfig(this, new LinuxOptions(socket, this));
        if (!unix) {
            reuseAddressByDefault();
        }
        this.accepts = new AcceptLoop(this, new AcceptLoop.Acceptor() {
            @Override
            public Channel accept() throws IOException {
                return acceptChild();
            }

            @Override
            public void stopAccepting() {
                removeInterest(EpollIoOps.EPOLLIN);
            }

            @Override
            public void resumeAccepting() {
                if (isReadPending() || config.isAutoRead()) {
                    setReadPending(false);
                    doBeginRead(); // re-adding the interest re-arms the edge if connections are waiting
                }
            }
        });
    }

    /**
     * Sets {@code SO_REUSEADDR} on the new socket, as the JDK does for its server sockets: without it a
     * server restarted on the port it just served fails to bind while its closed connections sit in
     * TIME_WAIT (a service restart would fail for a minute). Options given to the bootstrap are set
     * after this and before bind, so {@code ChannelOption.SO_REUSEADDR} false still turns it off.
     * Unix-domain sockets have no TIME_WAIT (the option means nothing there).
     */
    private void reuseAddressByDefault() {
        try {
            config.setOption(ChannelOption.SO_REUSEADDR, true);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public EpollServerSocketChannelConfig config() {
        return config;
    }

    @Override
    public boolean isActive() {
        return socket.isOpen() && boundAddress != null;
    }

    @Override
    protected SocketAddress localAddress0() {
        return boundAddress;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
        socket.listen(config.getBacklog());
        boundAddress = socket.localAddress();
    }

    @Override
    protected void doClose() throws Exception {
        super.doClose();
        if (boundAddress instanceof UnixDomainSocketAddress path) {
            Files.deleteIfExists(path.getPath());
        }
    }

    @Override
    protected void doDisconnect() {
        throw new UnsupportedOperationException("a server channel does not disconnect; close it");
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        AcceptLoop.failWrites(in);
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        throw AcceptLoop.writeRefused(msg);
    }

    @Override
    protected EpollIoOps readOps() {
        return EpollIoOps.EPOLLIN;
    }

    @Override
    protected void doBeginRead() {
        if (accepts.isPaused()) {
            setReadPending(true); // served once the pause ends
        } else {
            super.doBeginRead();
        }
    }

    @Override
    protected void ioReady(EpollIoOps ready) {
        if (ready.isReadable() && isOpen() && !accepts.isPaused()) {
            readNow();
        }
    }

    @Override
    protected void readNow() {
        readBurstStarted();
        boolean drained = accepts.acceptBurst();
        if (!accepts.isPaused()) {
            readBurstEnded(drained);
        }
    }

    /** The next pending connection as a child; null when none is pending. */
    private EpollSocketChannel acceptChild() throws IOException {
        for (;;) {
            int fd = acceptFd();
            if (fd < 0) {
                return null;
            }
            EpollSocketChannel child = newChild(fd);
            if (child != null) {
                return child;
            }
        }
    }

    /** One {@code accept4}; -1 when no connection is pending. Overridden by tests to simulate EMFILE. */
    int acceptFd() throws IOException {
        return socket.accept(acceptedPeer);
    }

    /** A channel for an accepted descriptor on the child group's next loop; null (descriptor closed) if that fails. */
    private EpollSocketChannel newChild(int fd) {
        LinuxSocket accepted = socket.accepted(fd);
        try {
            EventLoop loop = childGroup.next();
            EpollSocketChannel child = accepted.isUnix() ? new EpollDomainSocketChannel(this, loop, accepted)
                    : new EpollSocketChannel(this, loop, accepted, acceptedPeer);
            child.epollMode(epollMode()); // a child option set by the bootstrap still overrides this
            return child;
        } catch (Throwable t) {
            LOG.warn("Could not create a channel for a connection accepted by " + this + "; closed it", t);
            try {
                accepted.close();
            } catch (IOException e) {
                t.addSuppressed(e);
            }
            return null;
        }
    }
}
