package io.rill.channel.local;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.EventLoop;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.util.RillProperties;
import io.rill.util.concurrent.Promise;

/**
 * One end of an in-VM connection to a {@link LocalServerChannel}. What one end writes and flushes
 * is handed, as the same message objects (buffers are not copied), to the other end's pipeline on
 * the other end's event loop, in order.
 *
 * <p>Reading: messages wait in the reader's {@link LocalInbox} (bounded in messages and bytes) until it asks for them
 * ({@code read()}, or {@code AUTO_READ}); a read delivers up to {@code MAX_MESSAGES_PER_READ}
 * messages (one while {@code AUTO_READ} is off, no more once it has run for
 * {@code rill.channel.readBurstQuantumMicros}) and then {@code channelReadComplete}. A full inbox
 * stops the writer, whose outbound buffer then fills and turns it unwritable.
 *
 * <p>Closing one end closes the other once the other has read everything written before the
 * close. Disconnect is close. Connecting to an address nobody is bound to fails at once with a
 * {@link ConnectException} naming the address; the connect completes when the server's acceptor
 * registered the accepted channel (until then it may time out, {@code CONNECT_TIMEOUT_MILLIS}).
 *
 * <p>Needs an event loop made with {@link LocalIoHandler#newFactory()}.
 */
public final class LocalChannel extends AbstractChannel {

    private enum State { OPEN, CONNECTING, CONNECTED, CLOSED }

    private final ChannelConfig config = new ChannelConfig(this);
    private final LocalInbox inbox = new LocalInbox();
    private final LocalRegistration registration = new LocalRegistration();
    private final LocalIoHandle handle = new Handle();
    /** A drain task is queued on our loop; set by whoever queues it, cleared by the task as it starts. */
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    /** The other end: fixed at construction for an accepted channel, set when a client's connect completes. */
    private volatile LocalChannel peer;
    /** Written on our loop; read by the peer to decide whether its writes can still arrive. */
    private volatile State state = State.OPEN;
    /** The peer closed: once the inbox is drained, close too. Set from the peer's loop. */
    private volatile boolean peerClosed;
    private volatile LocalAddress localAddress;
    private volatile LocalAddress remoteAddress;
    /** A read() is outstanding: the next drain may deliver. Loop only. */
    private boolean readRequested;

    /**
     * A client channel on {@code eventLoop}; connect it to a bound {@link LocalAddress}.
     *
     * @param eventLoop a loop running a {@link LocalIoHandler}
     */
    public LocalChannel(EventLoop eventLoop) {
        super(null, eventLoop);
    }

    /** The server side of a connection from {@code client}, accepted by {@code parent}. */
    LocalChannel(LocalServerChannel parent, EventLoop eventLoop, LocalChannel client) {
        super(parent, eventLoop);
        this.peer = client;
        this.localAddress = parent.localAddress();
        this.remoteAddress = client.localAddress;
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public LocalServerChannel parent() {
        return (LocalServerChannel) super.parent();
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED;
    }

    @Override
    public boolean isActive() {
        return state == State.CONNECTED;
    }

    @Override
    public LocalAddress localAddress() {
        return localAddress;
    }

    @Override
    public LocalAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    protected SocketAddress localAddress0() {
        return localAddress;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return remoteAddress;
    }

    // ---------------------------------------------------------------- life cycle

    @Override
    protected void doRegister(Promise<Void> promise) {
        registration.register(this, handle, promise, () -> {
            if (parent() != null && state == State.OPEN) {
                // An accepted channel is connected as soon as it is registered; now the client may finish.
                state = State.CONNECTED;
                LocalChannel client = peer;
                try {
                    client.eventLoop().execute(() -> client.accepted(this));
                } catch (RuntimeException e) {
                    state = State.OPEN; // the client's loop is gone: fail the registration, stay inactive
                    throw e;
                }
            }
        });
    }

    @Override
    protected void doDeregister() {
        registration.cancel();
    }

    @Override
    protected void doBind(SocketAddress local) throws BindException {
        if (!(local instanceof LocalAddress address)) {
            throw new BindException("not a local address: " + local);
        }
        // A client's own address is only a label for the peer's remoteAddress(); it is not registered.
        localAddress = address;
    }

    @Override
    protected boolean doConnect(SocketAddress remote, SocketAddress local) throws Exception {
        if (!(remote instanceof LocalAddress address)) {
            throw new ConnectException("not a local address: " + remote);
        }
        LocalServerChannel server = LocalServerChannel.boundTo(address);
        if (server == null) {
            throw new ConnectException("connection refused: nothing is bound to " + address);
        }
        if (local != null) {
            doBind(local);
        }
        if (localAddress == null || localAddress.equals(LocalAddress.ANY)) {
            localAddress = LocalAddress.ephemeral();
        }
        remoteAddress = address;
        state = State.CONNECTING;
        try {
            server.connectRequested(this);
        } catch (Throwable t) {
            state = State.OPEN;
            throw (ConnectException) new ConnectException("connection refused by " + address).initCause(t);
        }
        return false;
    }

    /** On our loop: the server side registered; our connect is complete. */
    private void accepted(LocalChannel serverSide) {
        if (state != State.CONNECTING) {
            serverSide.close(); // we gave up meanwhile (closed, timed out, cancelled)
            return;
        }
        peer = serverSide;
        state = State.CONNECTED;
        connectFinished(null);
        if (peerClosed) {
            scheduleDrain(); // the server side closed already; close too, even if we never read
        }
    }

    /** From the server's loop: it will not accept us. */
    void refused(ConnectException cause) {
        try {
            eventLoop().execute(() -> {
                if (state == State.CONNECTING) {
                    state = State.OPEN;
                    connectFinished(cause);
                }
            });
        } catch (Throwable t) {
            // The client's loop is shutting down, and with it the client: nobody is left to tell.
        }
    }

    @Override
    protected void doDisconnect() {
        // A local connection cannot be re-used: disconnect closes, as a later task, so that
        // disconnect completes first and channelInactive fires once, from the close.
        eventLoop().execute(this::close);
    }

    @Override
    protected void doClose() {
        State was = state;
        state = State.CLOSED;
        inbox.releaseAll();
        LocalChannel p = peer;
        if (was == State.CONNECTED && p != null) {
            p.peerClosed = true;
            p.scheduleDrain();
        } else if (was == State.OPEN && parent() != null) {
            // Accepted but closed before registration: the client would otherwise wait for its timeout.
            p.refused(new ConnectException("connection refused: " + localAddress + " closed the accepted channel"));
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void doBeginRead() {
        readRequested = true;
        if (!inbox.isEmpty() || peerClosed) {
            scheduleDrain();
        }
    }

    /** Queues one {@link #drain()} on our loop unless one is queued already; any thread. */
    private void scheduleDrain() {
        if (!drainQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            eventLoop().execute(this::drain);
        } catch (Throwable t) {
            // Our loop is gone, so nobody will ever read these.
            drainQueued.set(false);
            inbox.releaseAll();
        }
    }

    /** On our loop: delivers one read burst if a read is outstanding; closes after a closed peer's last message. */
    private void drain() {
        drainQueued.set(false);
        if (state != State.CONNECTED) {
            return;
        }
        if (readRequested) {
            readBurst();
        }
        if (peerClosed && inbox.isEmpty() && state == State.CONNECTED) {
            close();
        }
    }

    private void readBurst() {
        readRequested = false;
        int max = config.getMaxMessagesPerRead();
        int n = 0;
        long burstStart = System.nanoTime();
        for (Object msg; n < max && (n == 0 || config.isReadingAutomatically()
                        && System.nanoTime() - burstStart < RillProperties.READ_BURST_QUANTUM_NANOS)
                && state == State.CONNECTED && (msg = inbox.poll()) != null; n++) {
            pipeline().fireChannelRead(msg);
        }
        if (n == 0) {
            readRequested = true; // nothing there yet: the request stands for the next arrival
            return;
        }
        LocalChannel p = peer;
        if (p != null && inbox.takeWaitingWriter()) {
            p.eventLoop().execute(p::resumeWrites);
        }
        pipeline().fireChannelReadComplete();
    }

    // ---------------------------------------------------------------- writing

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws IOException {
        LocalChannel p = peer;
        try {
            for (Object msg; (msg = in.current()) != null; ) {
                if (p.state == State.CLOSED) {
                    throw new IOException(p + " is closed; cannot deliver a " + msg.getClass().getSimpleName());
                }
                if (!p.inbox.hasSpace() && !p.inbox.waitForSpace()) {
                    return; // the peer resumes us once it has read
                }
                // The peer's reference; in.remove() then releases ours and completes the write.
                p.inbox.add(ReferenceCountUtil.retain(msg));
                in.remove();
            }
        } finally {
            p.scheduleDrain();
            if (p.state == State.CLOSED) {
                p.inbox.releaseAll(); // closed after we added: its own release may have missed ours
            }
        }
    }

    /** What the loop's I/O handler holds; it closes the channel when the loop shuts down. */
    private final class Handle implements LocalIoHandle {
        @Override
        public void handle(IoRegistration registration, IoOps readyOps) {
        }

        @Override
        public void close() {
            LocalChannel.this.close();
        }

        @Override
        public String toString() {
            return LocalChannel.this.toString();
        }
    }
}
