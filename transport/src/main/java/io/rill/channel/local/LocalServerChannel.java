package io.rill.channel.local;

import java.net.BindException;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.util.concurrent.Promise;

/**
 * Listens on a {@link LocalAddress} for {@link LocalChannel} connects. Each accepted connection
 * arrives in this channel's pipeline as a {@code channelRead} of a new, unregistered
 * {@link LocalChannel} on a loop of the child group; the acceptor (a bootstrap, or any handler)
 * adds its handlers and registers it, which completes the client's connect.
 *
 * <p>Accepts follow read back-pressure like a socket's: connects wait, at most {@link #BACKLOG} of
 * them, until a read (or {@code AUTO_READ}) takes up to {@code MAX_MESSAGES_PER_READ}; beyond the
 * backlog, and when the server closes, waiting clients are refused.
 *
 * <p>Every bound server is in one VM-wide map from address to channel: binding an address in use
 * fails with {@link BindException}; {@link LocalAddress#ANY} binds a generated address.
 */
public final class LocalServerChannel extends AbstractChannel {

    /** Most connects waiting to be accepted. */
    static final int BACKLOG = 128;

    /** Every bound, open server. An entry is added by bind and removed only by its own channel's close. */
    private static final ConcurrentMap<LocalAddress, LocalServerChannel> BOUND = new ConcurrentHashMap<>();

    private enum State { OPEN, BOUND, CLOSED }

    private final ChannelConfig config = new ChannelConfig(this);
    private final LocalRegistration registration = new LocalRegistration();
    private final LocalIoHandle handle = new Handle();
    /** Where accepted channels go to live. */
    private final EventLoopGroup childGroup;
    /** Clients waiting for an accept, oldest first; at most BACKLOG. Loop only. */
    private final ArrayDeque<LocalChannel> waiting = new ArrayDeque<>();
    private volatile State state = State.OPEN;
    private volatile LocalAddress localAddress;
    /** A read() is outstanding. Loop only. */
    private boolean readRequested;

    /**
     * A server whose accepted channels share its own event loop.
     *
     * @param eventLoop a loop running a {@link LocalIoHandler}
     */
    public LocalServerChannel(EventLoop eventLoop) {
        this(eventLoop, eventLoop);
    }

    /**
     * A server whose accepted channels are spread over {@code childGroup} (its loops must be local ones).
     *
     * @param eventLoop a loop running a {@link LocalIoHandler}
     * @param childGroup the loops accepted channels are spread over
     */
    public LocalServerChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        super(null, eventLoop);
        if (childGroup == null) {
            throw new NullPointerException("childGroup");
        }
        this.childGroup = childGroup;
    }

    /** The open server bound to {@code address}, or null. */
    static LocalServerChannel boundTo(LocalAddress address) {
        return BOUND.get(address);
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED;
    }

    @Override
    public boolean isActive() {
        return state == State.BOUND;
    }

    @Override
    public LocalAddress localAddress() {
        return localAddress;
    }

    @Override
    protected SocketAddress localAddress0() {
        return localAddress;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doRegister(Promise<Void> promise) {
        registration.register(this, handle, promise, () -> { });
    }

    @Override
    protected void doDeregister() {
        registration.cancel();
    }

    @Override
    protected void doBind(SocketAddress local) throws BindException {
        if (!(local instanceof LocalAddress requested)) {
            throw new BindException("not a local address: " + local);
        }
        if (state != State.OPEN) {
            throw new BindException(this + " is bound already");
        }
        LocalAddress address = requested;
        if (requested.equals(LocalAddress.ANY)) {
            do {
                address = LocalAddress.ephemeral(); // a user may have taken a generated-looking name
            } while (BOUND.putIfAbsent(address, this) != null);
        } else if (BOUND.putIfAbsent(address, this) != null) {
            throw new BindException("address already in use: " + address);
        }
        localAddress = address;
        state = State.BOUND;
    }

    @Override
    protected void doDisconnect() throws Exception {
        throw new UnsupportedOperationException("a server channel does not disconnect; close it");
    }

    @Override
    protected void doClose() {
        state = State.CLOSED;
        if (localAddress != null) {
            BOUND.remove(localAddress, this);
        }
        for (LocalChannel client; (client = waiting.poll()) != null; ) {
            client.refused(new ConnectException("connection refused: " + localAddress + " closed"));
        }
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        throw new UnsupportedOperationException("a server channel does not write");
    }

    /** Nobody took an accepted channel: close it, which refuses its client at once instead of at its timeout. */
    @Override
    protected void onUnhandledInboundMessage(Object msg) {
        if (msg instanceof LocalChannel child) {
            child.close();
        } else {
            super.onUnhandledInboundMessage(msg);
        }
    }

    // ---------------------------------------------------------------- accepting

    /** From the client's loop: queues the connect here; throws if this loop no longer takes tasks. */
    void connectRequested(LocalChannel client) {
        eventLoop().execute(() -> {
            if (state != State.BOUND) {
                client.refused(new ConnectException("connection refused: " + localAddress + " closed"));
            } else if (waiting.size() >= BACKLOG) {
                client.refused(new ConnectException("connection refused: backlog of " + localAddress
                        + " is full (" + BACKLOG + " waiting)"));
            } else {
                waiting.add(client);
                if (readRequested) {
                    acceptBurst();
                }
            }
        });
    }

    @Override
    protected void doBeginRead() {
        readRequested = true;
        if (!waiting.isEmpty()) {
            // A later task, so a read() issued from channelReadComplete does not recurse.
            eventLoop().execute(this::acceptBurst);
        }
    }

    private void acceptBurst() {
        if (!readRequested || state != State.BOUND || waiting.isEmpty()) {
            return;
        }
        readRequested = false;
        int max = config.getMaxMessagesPerRead();
        int n = 0;
        for (LocalChannel client; n < max && (n == 0 || config.isAutoRead()) && state == State.BOUND
                && (client = waiting.poll()) != null; n++) {
            pipeline().fireChannelRead(new LocalChannel(this, childGroup.next(), client));
        }
        pipeline().fireChannelReadComplete();
    }

    /** What the loop's I/O handler holds; it closes the server when the loop shuts down. */
    private final class Handle implements LocalIoHandle {
        @Override
        public void handle(IoRegistration registration, IoOps readyOps) {
        }

        @Override
        public void close() {
            LocalServerChannel.this.close();
        }

        @Override
        public String toString() {
            return LocalServerChannel.this.toString();
        }
    }
}
