package io.rill.channel.epoll;

import io.rill.channel.AbstractChannel;
import io.rill.channel.Channel;
import io.rill.channel.EventLoop;
import io.rill.channel.IoEventLoop;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * What every epoll channel shares: its {@link LinuxSocket}, the registration with the loop's
 * {@link EpollIoHandler}, the interest set, and the rule that makes edge-triggered reading safe.
 *
 * <p>Edge-triggered epoll reports input once per arrival. A read burst that ends before the
 * socket said EAGAIN (MAX_MESSAGES_PER_READ reached, AUTO_READ turned off, a full buffer) leaves
 * data that no new event will announce. So each burst reports through {@link #readBurstEnded}
 * whether the socket may hold more; if so, the channel reads again as a task of its own when
 * reading is wanted (AUTO_READ, or the next {@code read()}), instead of waiting for an edge that
 * will not come. A short read (fewer bytes than asked) counts as drained: any later arrival is a
 * new edge.
 *
 * <p>The interest set is kept here as in the NIO transport and carries {@code EPOLLET} in edge
 * mode; changing the {@link EpollMode} resubmits it. Loop-confined like every transport method.
 */
public abstract class AbstractEpollChannel extends AbstractChannel {

    static final EpollIoOps READ_OPS = EpollIoOps.EPOLLIN.with(EpollIoOps.EPOLLRDHUP);

    final LinuxSocket socket;
    private final Handle handle = new Handle();
    private final Runnable readAgain = this::readAgain;
    /** Null before doRegister completes and after the registration is cancelled. */
    private IoRegistration registration;
    /** The operations wanted, without the mode bit. */
    private EpollIoOps interest = EpollIoOps.NONE;
    private volatile EpollMode mode = EpollMode.EDGE_TRIGGERED;
    /** A read() was asked for and not served yet. */
    private boolean readPending;
    /** The last burst stopped before EAGAIN in edge mode: only we know input may be waiting. */
    private boolean maybeMoreToRead;
    /** A readAgain task is queued. */
    private boolean readAgainQueued;

    AbstractEpollChannel(Channel parent, EventLoop eventLoop, LinuxSocket socket) {
        super(parent, checkLoop(eventLoop));
        this.socket = socket;
    }

    private static EventLoop checkLoop(EventLoop loop) {
        if (loop == null) {
            throw new NullPointerException("eventLoop");
        }
        if (!(loop instanceof IoEventLoop ioLoop) || !ioLoop.isCompatible(EpollIoHandle.class)) {
            throw new IllegalArgumentException("epoll channels need an event loop driven by EpollIoHandler, not " + loop
                    + "; create the group with new MultiThreadIoEventLoopGroup(EpollIoHandler.newFactory())");
        }
        return loop;
    }

    /**
     * Epoll reported {@code ready} for this channel.
     *
     * @param ready the events that fired; event-loop thread only
     */
    protected abstract void ioReady(EpollIoOps ready);

    /** Reads one burst; called for input readiness and by the edge-triggered re-read. */
    protected abstract void readNow();

    /** {@return the socket descriptor (for diagnostics and tests)} */
    public final int fd() {
        return socket.fd();
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    final EpollMode epollMode() {
        return mode;
    }

    final void epollMode(EpollMode newMode) {
        if (newMode == null) {
            throw new NullPointerException("mode");
        }
        mode = newMode;
        if (eventLoop().inEventLoop()) {
            submitInterest();
        } else {
            eventLoop().execute(this::submitInterest);
        }
    }

    @Override
    protected void doRegister(Promise<Void> promise) {
        ((IoEventLoop) eventLoop()).register(handle).addListener((Future<? extends IoRegistration> f) -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
                return;
            }
            registration = f.getNow();
            submitInterest();
            promise.trySuccess(null);
        });
    }

    @Override
    protected void doDeregister() {
        IoRegistration r = registration;
        registration = null;
        if (r != null) {
            r.cancel();
        }
    }

    /** Leaves epoll before the descriptor is released, so its number cannot be reused under our registration. */
    @Override
    protected void doClose() throws Exception {
        doDeregister();
        socket.close();
    }

    @Override
    protected void doBeginRead() {
        readPending = true;
        addInterest(readOps());
        if (maybeMoreToRead) {
            queueReadAgain();
        }
    }

    /** {@return the interest that means input: EPOLLIN (with EPOLLRDHUP for a stream)} */
    protected EpollIoOps readOps() {
        return READ_OPS;
    }

    @Override
    protected void autoReadCleared() {
        if (eventLoop().inEventLoop()) {
            dropReadInterestUnlessWanted();
        } else {
            eventLoop().execute(this::dropReadInterestUnlessWanted);
        }
    }

    /** Call at the start of a read burst: the pending read() is being served. */
    protected final void readBurstStarted() {
        readPending = false;
        maybeMoreToRead = false;
    }

    /**
     * Call at the end of a read burst: {@code drained} if the socket said EAGAIN, end of stream or
     * returned fewer bytes than asked. Re-reads (edge mode) or drops the input interest.
     *
     * @param drained true if the socket has nothing more to read now
     */
    protected final void readBurstEnded(boolean drained) {
        if (!isOpen()) {
            return;
        }
        maybeMoreToRead = !drained && mode == EpollMode.EDGE_TRIGGERED;
        if (readPending || config().isReadingAutomatically()) {
            if (maybeMoreToRead) {
                queueReadAgain();
            }
        } else {
            removeInterest(readOps());
        }
    }

    /**
     * Drops the input interest unless a {@code read()} is pending or auto-read is on, so a channel with
     * auto-read off stops being woken for input it did not ask for. Event-loop thread only.
     */
    protected final void dropReadInterestUnlessWanted() {
        if (!readPending && !config().isReadingAutomatically()) {
            removeInterest(readOps());
        }
    }

    private void queueReadAgain() {
        if (!readAgainQueued) {
            readAgainQueued = true;
            eventLoop().execute(readAgain);
        }
    }

    private void readAgain() {
        readAgainQueued = false;
        if (isOpen() && maybeMoreToRead && (readPending || config().isReadingAutomatically())) {
            readNow();
        }
    }

    /** {@return true if a {@code read()} was asked for and not yet served} Event-loop thread only. */
    protected final boolean isReadPending() {
        return readPending;
    }

    /**
     * Marks whether a {@code read()} is waiting to be served. Event-loop thread only.
     *
     * @param pending true when a read was asked for
     */
    protected final void setReadPending(boolean pending) {
        readPending = pending;
    }

    /**
     * Adds {@code ops} to the events this channel waits for, updating the epoll registration when it changes.
     * Event-loop thread only.
     *
     * @param ops the events to add
     */
    protected final void addInterest(EpollIoOps ops) {
        setInterest(interest.with(ops));
    }

    /**
     * Removes {@code ops} from the events this channel waits for, updating the epoll registration when it
     * changes. Event-loop thread only.
     *
     * @param ops the events to remove
     */
    protected final void removeInterest(EpollIoOps ops) {
        setInterest(interest.without(ops));
    }

    /**
     * {@return true if this channel waits for all of {@code ops}} Event-loop thread only.
     *
     * @param ops the events to test
     */
    protected final boolean hasInterest(EpollIoOps ops) {
        return interest.contains(ops);
    }

    private void setInterest(EpollIoOps ops) {
        if (ops != interest) {
            interest = ops;
            submitInterest();
        }
    }

    private void submitInterest() {
        IoRegistration r = registration;
        if (r != null && r.isValid() && isOpen()) {
            r.submit(mode == EpollMode.EDGE_TRIGGERED ? interest.with(EpollIoOps.EPOLLET) : interest);
        }
    }

    /** The bridge from the poller to the channel; the channel itself cannot be an IoHandle (close() clashes). */
    private final class Handle implements EpollIoHandle {
        @Override
        public int fd() {
            return socket.fd();
        }

        @Override
        public int warmUp() {
            return AbstractEpollChannel.this.warmUp();
        }

        @Override
        public void handle(IoRegistration r, IoOps readyOps) {
            ioReady((EpollIoOps) readyOps);
        }

        /** The loop is shutting down or this handle threw: close the channel the ordinary way. */
        @Override
        public void close() {
            AbstractEpollChannel.this.close(voidPromise());
        }

        @Override
        public String toString() {
            return AbstractEpollChannel.this.toString();
        }
    }
}
