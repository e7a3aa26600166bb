package io.rill.channel;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ConnectionPendingException;
import java.nio.channels.NotYetConnectedException;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.internal.ChannelWarmUp;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * The base of every channel: the life cycle, the pipeline and the outbound buffer, written once.
 * A transport supplies the I/O as protected template methods ({@code doBind}, {@code doConnect},
 * {@code doWrite}, ...), which the pipeline's head calls on the event loop.
 *
 * <p>Guarantees kept here so transports need not: {@code channelRegistered} comes before
 * {@code channelActive}, and {@code channelUnregistered} after {@code channelInactive};
 * {@code channelActive} fires at most once per channel, however
 * many paths (registration, bind, connect) see it become active, and {@code channelInactive} fires
 * once after it and never without it; once {@code close} starts,
 * writes fail at once with a {@link java.nio.channels.ClosedChannelException} that says so and
 * their message is released; pending writes fail the same way; {@link #closeFuture()} completes
 * before the inactive and unregistered events, which run as later tasks so an operation in
 * progress finishes first; after deregistration of a closed channel every handler is removed
 * (so codecs release what they hold in {@code handlerRemoved}).
 *
 * <p>The transport's side: {@link #doRegister} completes a promise (registration with an
 * {@link IoEventLoop} is asynchronous); {@link #doConnect} returns false for a connect still in
 * progress and the transport reports its outcome through {@link #connectFinished(Throwable)};
 * {@link #doWrite} writes as much as the socket takes and, if it stopped early, asks for
 * writability and later calls {@link #resumeWrites()}.
 */
public abstract class AbstractChannel implements Channel {

    private static final InternalLogger LOG = InternalLogger.get(AbstractChannel.class);

    static {
        ResourceExhaustion.preload();
        ChannelWarmUp.install(AbstractChannel::warmUpObjects);
    }

    private final Channel parent;
    private final ChannelId id;
    /** Fixed for the channel's life. */
    private final EventLoop eventLoop;
    private final LinkedPipeline pipeline;
    private final ChannelAttributes attributes = new ChannelAttributes();
    private final CloseFuture closeFuture;
    // A connect the transport started and has not finished (waiting for the socket to become
    // connectable), with its timeout; both null when none is pending. Loop-confined.
    /** The caller's promise of the pending connect. */
    private Promise<Void> connectPromise;
    /** Fails the pending connect when CONNECT_TIMEOUT_MILLIS elapse; null without a limit. */
    private ScheduledFuture<?> connectTimeout;
    /** The pending writes; null from the moment close starts, which is how late writes are refused. */
    private volatile ChannelOutboundBuffer outboundBuffer;
    // Registration with the loop and the once-only, in-order life-cycle events. All but
    // `registered` are loop-confined.
    /** True between a successful register and the matching deregister. */
    private volatile boolean registered;
    /** False until the first registration, which alone fires channelActive for an already active channel. */
    private boolean everRegistered;
    /** channelActive fired; set once, so it never fires twice, and channelInactive is owed. */
    private boolean activeFired;
    /** channelInactive fired. */
    private boolean inactiveFired;
    /** Loop-confined: close was called once; later calls only wait for it. */
    private boolean closeInitiated;
    /** Loop-confined: closeForResource ran; it reports once. */
    private boolean closingForResource;
    /** Loop-confined: doWrite is running; a nested flush must not re-enter it. */
    private boolean inFlush;

    /**
     * A channel with a new {@link ChannelId}.
     *
     * @param parent the server channel that accepted this one, or null
     * @param eventLoop the loop that runs all of this channel's events, for its whole life
     */
    protected AbstractChannel(Channel parent, EventLoop eventLoop) {
        this(parent, eventLoop, ChannelId.newInstance());
    }

    /**
     * A channel with the given id.
     *
     * @param parent the server channel that accepted this one, or null
     * @param eventLoop the loop that runs all of this channel's events, for its whole life
     * @param id the channel's id
     * @throws NullPointerException if {@code eventLoop} is null
     */
    protected AbstractChannel(Channel parent, EventLoop eventLoop, ChannelId id) {
        if (eventLoop == null) {
            throw new NullPointerException("eventLoop");
        }
        if (id == null) {
            throw new NullPointerException("id");
        }
        this.parent = parent;
        this.eventLoop = eventLoop;
        this.id = id;
        this.closeFuture = new CloseFuture(eventLoop);
        this.pipeline = new LinkedPipeline(this);
        this.outboundBuffer = new ChannelOutboundBuffer(this);
    }

    // ---------------------------------------------------------------- transport template methods

    /** {@return the bound local address, or null} */
    protected abstract SocketAddress localAddress0();

    /** {@return the connected remote address, or null} */
    protected abstract SocketAddress remoteAddress0();

    /**
     * Registers with the event loop's I/O handler and completes {@code promise}; default: nothing to register.
     *
     * @param promise completed when registered; event-loop thread only
     */
    protected void doRegister(Promise<Void> promise) {
        promise.setSuccess(null);
    }

    /**
     * Undoes {@link #doRegister}.
     *
     * @throws Exception if the transport fails to deregister
     */
    protected void doDeregister() throws Exception {
    }

    /**
     * Binds the transport to {@code localAddress}. Event-loop thread only.
     *
     * @param localAddress the address
     * @throws Exception if the bind fails; the bind future fails with it
     */
    protected abstract void doBind(SocketAddress localAddress) throws Exception;

    /**
     * Starts a connect; returns true if connected already, false if the transport will report the
     * outcome later through {@link #connectFinished(Throwable)}.
     *
     * @param remoteAddress the peer
     * @param localAddress the address to bind first, or null
     * @return true if connected already
     * @throws Exception if the connect fails at once
     */
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not connect");
    }

    /**
     * Disconnects the transport. Event-loop thread only.
     *
     * @throws Exception if the transport fails
     */
    protected abstract void doDisconnect() throws Exception;

    /**
     * True if a connect must be refused as already connected. By default "active": a stream is
     * active exactly while connected. A datagram channel is active once bound and overrides this.
     *
     * @return true if a connect must be refused
     */
    protected boolean isAlreadyConnected() {
        return isActive();
    }

    /**
     * Closes the underlying resource; called once.
     *
     * @throws Exception if closing fails; the channel counts as closed anyway
     */
    protected abstract void doClose() throws Exception;

    /**
     * Starts watching for input; the read loop delivers it through the pipeline.
     *
     * @throws Exception if the transport cannot watch for input
     */
    protected abstract void doBeginRead() throws Exception;

    /**
     * Writes flushed messages from {@code in}, {@link ChannelOutboundBuffer#remove()}ing each once
     * fully written. If the transport cannot take more now it returns with messages left and
     * calls {@link #resumeWrites()} when it can.
     *
     * @param in the channel's outbound buffer; event-loop thread only
     * @throws Exception if writing fails; the failed message's promise fails with it
     */
    protected abstract void doWrite(ChannelOutboundBuffer in) throws Exception;

    /**
     * Converts or rejects a message before it is queued (e.g. heap buffer to direct); throws to refuse it.
     *
     * @param msg the message about to be queued; if the method returns another object it must release {@code
     *     msg}
     * @return the message to queue
     * @throws Exception to refuse the message; the write fails and the caller's message is released
     */
    protected Object filterOutboundMessage(Object msg) throws Exception {
        return msg;
    }

    /**
     * Bytes {@code msg} counts as against the write-buffer water marks: readable bytes of a buffer, else 0.
     *
     * @param msg the message
     * @return its size in bytes
     */
    protected int messageSize(Object msg) {
        return msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
    }

    /** AUTO_READ was turned off: a transport may stop watching for input until the next read(). */
    protected void autoReadCleared() {
    }

    /**
     * A message reached the tail unconsumed: released, logged at debug.
     *
     * @param msg the message; this method releases it
     */
    protected void onUnhandledInboundMessage(Object msg) {
        try {
            if (LOG.isDebugEnabled()) {
                LOG.debug("Discarded an inbound message that reached the end of the pipeline of {}: {}."
                        + " Add a handler that consumes it. Pipeline: {}", this, msg, pipeline.names());
            }
        } finally {
            ReferenceCountUtil.safeRelease(msg);
        }
    }

    /**
     * An exception reached the tail unhandled: logged at warn, never rethrown.
     *
     * @param cause the exception
     */
    protected void onUnhandledInboundException(Throwable cause) {
        LOG.warn("An exception reached the end of the pipeline of " + this
                + " without being handled; add a handler that overrides exceptionCaught()", cause);
    }

    // ---------------------------------------------------------------- called by the transport

    /**
     * The pending connect finished: {@code cause} null means connected. Call on the event loop.
     *
     * @param cause null if connected, else why the connect failed
     */
    protected final void connectFinished(Throwable cause) {
        Promise<Void> promise = finishConnect();
        if (promise == null) {
            return; // timed out or cancelled already
        }
        if (cause == null) {
            fulfillConnect(promise, false);
        } else {
            promise.tryFailure(cause);
        }
    }

    /** {@return true while a connect is in progress} */
    protected final boolean isConnectPending() {
        return connectPromise != null;
    }

    /** The socket can take more: write what is flushed. Call on the event loop. */
    protected final void resumeWrites() {
        flush0();
    }

    /** {@return the outbound buffer, or null once close started} Event-loop thread only. */
    protected final ChannelOutboundBuffer outboundBuffer() {
        return outboundBuffer;
    }

    /** What {@link ChannelWarmUp} loads: the pipeline's contexts and handlers, the outbound buffer. */
    private int warmUpObjects() {
        ChannelOutboundBuffer out = outboundBuffer;
        return pipeline.warmUp() + (out == null ? 0 : out.warmUp());
    }

    // ---------------------------------------------------------------- called by the pipeline head

    final void registerNow(Promise<Void> promise) {
        if (registered) {
            promise.tryFailure(new IllegalStateException(this + " is registered already"));
            return;
        }
        if (!ensureOpen(promise, "register")) {
            return;
        }
        Promise<Void> done = new DefaultPromise<>(eventLoop);
        done.addListener(f -> registrationDone(f, promise));
        try {
            doRegister(done);
        } catch (Throwable t) {
            done.tryFailure(t);
        }
    }

    private void registrationDone(Future<? extends Void> outcome, Promise<Void> promise) {
        if (!outcome.isSuccess()) {
            promise.tryFailure(outcome.cause());
            return;
        }
        registered = true;
        boolean first = !everRegistered;
        everRegistered = true;
        // Events before the promise: its listeners (a bootstrap's bind or connect) may make the
        // channel active at once, and channelActive must not overtake channelRegistered.
        pipeline.fireChannelRegistered();
        if (first) {
            ChannelLifecycle.registered(this);
            fireActiveOnce(); // an accepted channel is active before it is ever registered
        } else if (isActive() && config().isReadingAutomatically()) {
            beginReadNow();
        }
        promise.trySuccess(null);
    }

    /** Fires channelActive if the channel is active and it has not fired yet. */
    private void fireActiveOnce() {
        if (!activeFired && isActive()) {
            activeFired = true;
            pipeline.fireChannelActive();
        }
    }

    /** Fires channelInactive once, and only after channelActive did. */
    private void fireInactiveOnce() {
        if (activeFired && !inactiveFired) {
            inactiveFired = true;
            pipeline.fireChannelInactive();
        }
    }

    /** Runs as a task of its own, so the operation that led here completed first. */
    private void deregister(Promise<Void> promise, boolean fireInactive) {
        try {
            if (registered) {
                doDeregister();
            }
        } catch (Throwable t) {
            LOG.warn("Deregistering " + this + " failed", t);
        }
        if (fireInactive) {
            fireInactiveOnce();
        }
        if (registered) {
            registered = false;
            pipeline.fireChannelUnregistered();
        }
        if (!isOpen()) {
            pipeline.destroy();
        }
        promise.trySuccess(null);
    }

    final void bindNow(SocketAddress localAddress, Promise<Void> promise) {
        if (!promise.setUncancellable() || !ensureOpen(promise, "bind")) {
            return;
        }
        boolean wasActive = isActive();
        try {
            doBind(localAddress);
        } catch (Throwable t) {
            promise.tryFailure(BindFailure.namingAddress(t, localAddress));
            return;
        }
        if (!wasActive && isActive()) {
            invokeLater(this::fireActiveOnce);
        }
        promise.trySuccess(null);
    }

    final void connectNow(SocketAddress remoteAddress, SocketAddress localAddress, Promise<Void> promise) {
        if (!promise.setUncancellable() || !ensureOpen(promise, "connect")) {
            return;
        }
        if (isConnectPending()) {
            promise.tryFailure(new ConnectionPendingException());
            return;
        }
        if (isAlreadyConnected()) {
            promise.tryFailure(new AlreadyConnectedException());
            return;
        }
        boolean wasActive = isActive();
        try {
            if (doConnect(remoteAddress, localAddress)) {
                fulfillConnect(promise, wasActive);
            } else {
                startConnect(promise, remoteAddress, config().getConnectTimeoutMillis());
            }
        } catch (Throwable t) {
            promise.tryFailure(t);
        }
    }

    /** Remembers a connect in flight, arms its timeout and reacts to cancellation by the caller. */
    private void startConnect(Promise<Void> promise, SocketAddress remote, int timeoutMillis) {
        connectPromise = promise;
        if (timeoutMillis > 0) {
            connectTimeout = eventLoop.schedule(() -> {
                Promise<Void> p = connectPromise;
                if (p != null && p.tryFailure(new ConnectTimeoutException(
                        "connection timed out after " + timeoutMillis + " ms: " + remote))) {
                    close(voidPromise());
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        if (!VoidChannelPromise.isVoid(promise)) {
            promise.addListener((Future<? extends Void> f) -> {
                if (f.isCancelled()) {
                    finishConnect();
                    close(voidPromise());
                }
            });
        }
    }

    /** Ends the pending connect, disarming its timeout, and returns its promise (null if none was pending). */
    private Promise<Void> finishConnect() {
        Promise<Void> p = connectPromise;
        if (connectTimeout != null) {
            connectTimeout.cancel(false);
            connectTimeout = null;
        }
        connectPromise = null;
        return p;
    }

    private void fulfillConnect(Promise<Void> promise, boolean wasActive) {
        boolean active = isActive();
        boolean delivered = promise.trySuccess(null);
        if (!wasActive && active) {
            fireActiveOnce();
        }
        if (!delivered) {
            // The caller gave up (cancelled) while we connected: nobody wants this connection.
            closeNow(voidPromise());
        }
    }

    final void disconnectNow(Promise<Void> promise) {
        if (!promise.setUncancellable()) {
            return;
        }
        boolean wasActive = isActive();
        try {
            doDisconnect();
        } catch (Throwable t) {
            promise.tryFailure(t);
            return;
        }
        if (wasActive && !isActive()) {
            invokeLater(this::fireInactiveOnce);
        }
        promise.trySuccess(null);
    }

    final void closeNow(Promise<Void> promise) {
        if (!promise.setUncancellable()) {
            return;
        }
        if (closeInitiated) {
            if (!VoidChannelPromise.isVoid(promise)) {
                closeFuture.addListener(f -> promise.trySuccess(null));
            }
            return;
        }
        closeInitiated = true;
        ChannelLifecycle.closing(this, everRegistered); // while the outbound buffer still counts what was written
        boolean wasActive = isActive();
        ChannelOutboundBuffer buffer = outboundBuffer;
        outboundBuffer = null;
        Promise<Void> pendingConnect = finishConnect();
        if (pendingConnect != null) {
            pendingConnect.tryFailure(new ChannelClosedException(this + " closed while connecting"));
        }
        Throwable closeError = null;
        try {
            doClose();
        } catch (Throwable t) {
            closeError = t;
        }
        closeFuture.setClosed();
        if (closeError == null) {
            promise.trySuccess(null);
        } else {
            promise.tryFailure(closeError);
        }
        if (buffer != null) {
            ChannelClosedException cause = new ChannelClosedException(this + " closed before the write was flushed");
            buffer.failFlushed(cause, false);
            buffer.close(cause);
        }
        boolean fireInactive = wasActive && !isActive();
        invokeLater(() -> deregister(voidPromise(), fireInactive));
    }

    final void deregisterNow(Promise<Void> promise) {
        if (!promise.setUncancellable()) {
            return;
        }
        invokeLater(() -> deregister(promise, false));
    }

    final void beginReadNow() {
        if (!isActive()) {
            return;
        }
        try {
            doBeginRead();
        } catch (Throwable t) {
            invokeLater(() -> pipeline.fireExceptionCaught(t));
            closeNow(voidPromise());
        }
    }

    final void writeNow(Object msg, Promise<Void> promise) {
        ChannelOutboundBuffer buffer = outboundBuffer;
        if (buffer == null) {
            try {
                promise.tryFailure(new ChannelClosedException(this + " is closed; refused to write a "
                        + msg.getClass().getSimpleName()));
            } finally {
                ReferenceCountUtil.safeRelease(msg);
            }
            return;
        }
        int size;
        try {
            msg = filterOutboundMessage(msg);
            size = messageSize(msg);
        } catch (Throwable t) {
            try {
                promise.tryFailure(t);
            } finally {
                ReferenceCountUtil.safeRelease(msg);
            }
            return;
        }
        buffer.addMessage(msg, size, promise);
    }

    final void flushNow() {
        ChannelOutboundBuffer buffer = outboundBuffer;
        if (buffer == null) {
            return;
        }
        buffer.addFlush();
        flush0();
    }

    private void flush0() {
        ChannelOutboundBuffer buffer = outboundBuffer;
        if (inFlush || buffer == null || buffer.isEmpty()) {
            return;
        }
        inFlush = true;
        try {
            if (!isActive()) {
                if (isOpen()) {
                    buffer.failFlushed(new NotYetConnectedException(), true);
                } else {
                    buffer.failFlushed(new ChannelClosedException(this + " is closed"), false);
                }
                return;
            }
            doWrite(buffer);
        } catch (Throwable t) {
            buffer.failFlushed(t, true);
            if (t instanceof IOException && config().isAutoClose()) {
                closeNow(voidPromise());
            }
        } finally {
            inFlush = false;
        }
    }

    private boolean ensureOpen(Promise<Void> promise, String op) {
        if (isOpen()) {
            return true;
        }
        promise.tryFailure(new ChannelClosedException(this + " is closed; cannot " + op));
        return false;
    }

    /**
     * Closes this channel because a resource ran out: logs {@code reason} once at warning level
     * (rate-limited across channels), fires a {@link ResourceExhaustedEvent}, then closes. Only the
     * first call on a channel acts. Any thread.
     *
     * @param reason what ran out, for the log line
     * @param cause the error that showed it, or null
     */
    public final void closeForResource(String reason, Throwable cause) {
        runOnLoop(() -> {
            if (closingForResource || !isOpen()) {
                return;
            }
            closingForResource = true;
            ResourceExhaustion.log(this, reason);
            pipeline.fireUserEventTriggered(new ResourceExhaustedEvent(reason, cause));
            close();
        });
    }

    /** Runs {@code task} now if on the loop, else as a loop task. */
    final void runOnLoop(Runnable task) {
        if (eventLoop.inEventLoop()) {
            task.run();
        } else {
            invokeLater(task);
        }
    }

    /**
     * Pauses automatic reading while the channel is not writable, or resumes it, as
     * PAUSE_READ_WHEN_UNWRITABLE asks; on the loop, whenever writability changes.
     */
    final void updateReadPause() {
        ChannelConfig config = config();
        boolean pause = config.isPauseReadWhenUnwritable() && !isWritable() && isOpen();
        if (!config.pauseReadForWrites(pause)) {
            return;
        }
        if (pause) {
            autoReadCleared(); // the transport may stop watching for input now
        } else if (config.isAutoRead()) {
            read();
        }
    }

    /** Runs {@code task} as a later event-loop task; during shutdown there is nobody left to tell. */
    private void invokeLater(Runnable task) {
        try {
            eventLoop.execute(task);
        } catch (Throwable t) {
            LOG.warn("Could not queue a task for " + this + " on " + eventLoop + " (shut down?)", t);
        }
    }

    // ---------------------------------------------------------------- Channel

    @Override
    public final ChannelId id() {
        return id;
    }

    @Override
    public Channel parent() {
        return parent;
    }

    @Override
    public EventLoop eventLoop() {
        return eventLoop;
    }

    @Override
    public ChannelPipeline pipeline() {
        return pipeline;
    }

    @Override
    public ByteBufAllocator alloc() {
        return config().getAllocator();
    }

    @Override
    public boolean isRegistered() {
        return registered;
    }

    @Override
    public boolean isWritable() {
        ChannelOutboundBuffer buffer = outboundBuffer;
        return buffer != null && buffer.isWritable();
    }

    @Override
    public long bytesBeforeUnwritable() {
        ChannelOutboundBuffer buffer = outboundBuffer;
        return buffer == null ? 0 : buffer.bytesBeforeUnwritable();
    }

    @Override
    public long totalBytesWritten() {
        ChannelOutboundBuffer buffer = outboundBuffer;
        return buffer == null ? 0 : buffer.totalBytesWritten();
    }

    @Override
    public long bytesBeforeWritable() {
        ChannelOutboundBuffer buffer = outboundBuffer;
        return buffer == null ? 0 : buffer.bytesBeforeWritable();
    }

    @Override
    public void incrementPendingOutboundBytes(long bytes) {
        requireNonNegative(bytes);
        if (!eventLoop.inEventLoop()) {
            eventLoop.execute(() -> incrementPendingOutboundBytes(bytes)); // the buffer's count has one writer
            return;
        }
        ChannelOutboundBuffer buffer = outboundBuffer;
        if (buffer != null) {
            buffer.incrementPendingOutboundBytes(bytes);
        }
    }

    @Override
    public void decrementPendingOutboundBytes(long bytes) {
        requireNonNegative(bytes);
        if (!eventLoop.inEventLoop()) {
            eventLoop.execute(() -> decrementPendingOutboundBytes(bytes));
            return;
        }
        ChannelOutboundBuffer buffer = outboundBuffer;
        if (buffer != null) {
            buffer.decrementPendingOutboundBytes(bytes, true);
        }
    }

    private static long requireNonNegative(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes: " + bytes + " (expected: >= 0)");
        }
        return bytes;
    }

    @Override
    public SocketAddress localAddress() {
        return localAddress0();
    }

    @Override
    public SocketAddress remoteAddress() {
        return remoteAddress0();
    }

    @Override
    public Future<Void> closeFuture() {
        return closeFuture;
    }

    @Override
    public <T> Attribute<T> attr(AttributeKey<T> key) {
        return attributes.attr(key);
    }

    @Override
    public <T> boolean hasAttr(AttributeKey<T> key) {
        return attributes.hasAttr(key);
    }

    @Override
    public String toString() {
        SocketAddress local = localAddress0();
        SocketAddress remote = remoteAddress0();
        StringBuilder sb = new StringBuilder(64).append(getClass().getSimpleName())
                .append("(id: ").append(id.asShortText());
        if (local != null) {
            sb.append(", L: ").append(local);
        }
        if (remote != null) {
            sb.append(isActive() ? ", R: " : ", R (inactive): ").append(remote);
        }
        return sb.append(')').toString();
    }
}
