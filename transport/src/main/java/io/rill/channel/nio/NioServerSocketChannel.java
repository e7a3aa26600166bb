package io.rill.channel.nio;

import java.io.IOException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;

import io.rill.channel.Channel;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.internal.AcceptLoop;
import io.rill.channel.internal.SocketOptionAccess;
import io.rill.channel.socket.ServerSocketChannelConfig;
import io.rill.util.InternalLogger;

/**
 * A listening socket over a JDK {@link ServerSocketChannel}: TCP by default, Unix-domain when
 * opened with {@link java.net.StandardProtocolFamily#UNIX} (see {@link NioServerDomainSocketChannel}).
 *
 * <p>Each accept readiness runs one {@link AcceptLoop} burst: up to {@code MAX_MESSAGES_PER_READ}
 * connections, each an unregistered {@link NioSocketChannel} on the next loop of the child group
 * given at construction, with a pause after an accept error (EMFILE, ...) so it cannot spin.
 *
 * <p>A Unix-domain server deletes its socket file when it closes, so the path can be bound again.
 */
public class NioServerSocketChannel extends AbstractNioChannel implements io.rill.channel.socket.ServerSocketChannel {

    private static final InternalLogger LOG = InternalLogger.get(NioServerSocketChannel.class);

    private final ServerSocketChannel server;
    /** Where accepted channels go; each child is created on its next() loop. */
    private final EventLoopGroup childGroup;
    private final ServerSocketChannelConfig config;
    /** The address bind() gave us; null before. Written on the loop, read anywhere. */
    private volatile SocketAddress boundAddress;
    /** Accept bursts and the pause after an accept error, during which doBeginRead only notes the wish. */
    private final AcceptLoop accepts;

    /**
     * A TCP server whose children live on {@code loop} as well.
     *
     * @param loop a loop running a {@link NioIoHandler}
     */
    public NioServerSocketChannel(EventLoop loop) {
        this(loop, loop);
    }

    /**
     * A TCP server whose children are spread over {@code childGroup}.
     *
     * @param loop a loop running a {@link NioIoHandler}
     * @param childGroup the loops accepted channels are spread over
     */
    public NioServerSocketChannel(EventLoop loop, EventLoopGroup childGroup) {
        this(loop, childGroup, open(null));
    }

    /**
     * A server of {@code family} ({@code INET}, {@code INET6} or {@code UNIX}).
     *
     * @param loop a loop running a {@link NioIoHandler}
     * @param childGroup the loops accepted channels are spread over
     * @param family the protocol family
     */
    public NioServerSocketChannel(EventLoop loop, EventLoopGroup childGroup, ProtocolFamily family) {
        this(loop, childGroup, open(family));
    }

    /**
     * Wraps an unbound JDK server channel.
     *
     * @param loop a loop running a {@link NioIoHandler}
     * @param childGroup the loops accepted channels are spread over
     * @param server the JDK channel; the Rill channel owns it from now on
     */
    public NioServerSocketChannel(EventLoop loop, EventLoopGroup childGroup, ServerSocketChannel server) {
        super(null, loop, server);
        if (childGroup == null) {
            throw new NullPointerException("childGroup");
        }
        this.server = server;
        this.childGroup = childGroup;
        this.config = new ServerSocketChannelConfig(this, SocketOptionAccess.of(server, this));
        this.accepts = new AcceptLoop(this, new AcceptLoop.Acceptor() {
            @Override
            public Channel accept() throws IOException {
                return acceptChild();
            }

            @Override
            public void stopAccepting() {
                removeInterest(NioIoOps.ACCEPT);
            }

            @Override
            public void resumeAccepting() {
                if (isReadPending() || config.isAutoRead()) {
                    addInterest(NioIoOps.ACCEPT);
                }
            }
        });
    }

    private static ServerSocketChannel open(ProtocolFamily family) {
        try {
            return family == null ? ServerSocketChannel.open() : ServerSocketChannel.open(family);
        } catch (IOException e) {
            throw new ChannelException("cannot open a server socket" + (family == null ? "" : " of family " + family), e);
        }
    }

    @Override
    public ServerSocketChannelConfig config() {
        return config;
    }

    @Override
    public boolean isActive() {
        return server.isOpen() && boundAddress != null;
    }

    @Override
    protected SocketAddress localAddress0() {
        try {
            return server.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        server.bind(localAddress, config.getBacklog());
        boundAddress = server.getLocalAddress();
    }

    @Override
    protected void doDisconnect() throws Exception {
        throw new UnsupportedOperationException("a server channel does not disconnect; close it");
    }

    @Override
    protected void doClose() throws Exception {
        // Deregister first: the JDK keeps a registered listener's descriptor, and so its port, open
        // until the selector drops the key; deregistered, the close below releases the port at once,
        // before the close future completes (a server restarted on the port binds).
        doDeregister();
        super.doClose();
        if (boundAddress instanceof UnixDomainSocketAddress path) {
            Files.deleteIfExists(path.getPath());
        }
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
    protected NioIoOps readOps() {
        return NioIoOps.ACCEPT;
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
    protected void ioReady(NioIoOps ready) {
        if (!ready.isAcceptable() || !isOpen()) {
            return;
        }
        setReadPending(false);
        accepts.acceptBurst();
        if (isOpen()) {
            dropReadInterestUnlessWanted();
        }
    }

    /** The next pending connection as a child; null when none is pending. */
    private NioSocketChannel acceptChild() throws IOException {
        for (;;) {
            SocketChannel socket = acceptSocket();
            if (socket == null) {
                return null;
            }
            NioSocketChannel child = newChild(socket);
            if (child != null) {
                return child;
            }
        }
    }

    /**
     * Accepts one pending connection, or returns null if none is pending; overridable to observe or fail accepts
     * in tests.
     *
     * @return the accepted socket, or null
     * @throws IOException if accepting fails
     */
    protected SocketChannel acceptSocket() throws IOException {
        return server.accept();
    }

    /**
     * A channel for an accepted socket, on the child group's next loop; null (socket closed) if that fails.
     *
     * @param socket the accepted socket
     * @return the channel, or null
     */
    protected NioSocketChannel newChild(SocketChannel socket) {
        try {
            EventLoop loop = childGroup.next();
            return socket.getLocalAddress() instanceof UnixDomainSocketAddress
                    ? new NioDomainSocketChannel(this, loop, socket) : new NioSocketChannel(this, loop, socket);
        } catch (Throwable t) {
            LOG.warn("Could not create a channel for a connection accepted by " + this + "; closed it", t);
            closeQuietly(socket);
            return null;
        }
    }
}
