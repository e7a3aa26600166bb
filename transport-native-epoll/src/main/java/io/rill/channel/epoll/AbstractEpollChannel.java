package io.rill.channel.epoll;

import io.rill.channel.AbstractChannel;
import io.rill.channel.Channel;
import io.rill.channel.EventLoop;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.channel.internal.ChannelWarmUp;
import io.rill.channel.internal.IoInterest;
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
 * <p>The registration and the interest set are an {@code IoInterest}, as in the NIO transport;
 * every submission carries {@code EPOLLET} in edge mode, and changing the {@link EpollMode}
 * resubmits it. Loop-confined like every transport method.
 */
public abstract class AbstractEpollChannel extends AbstractChannel {

    static final EpollIoOps READ_OPS = EpollIoOps.EPOLLIN.with(EpollIoOps.EPOLLRDHUP);

    final LinuxSocket socket;
    /** The epoll registration, the events wanted (without the mode bit), and whether a read() waits. */
    private final IoInterest<EpollIoOps> interest =
            new IoInterest<>(new Handle(), bits -> EpollIoOps.valueOf((int) bits));
    private final Runnable readAgain = this::readAgain;
    private volatile EpollMode mode = EpollMode.EDGE_TRIGGERED;
    /** The last burst stopped before EAGAIN in edge mode: only we know input may be waiting. */
    private boolean maybeMoreToRead;
    /** A readAgain task is queued. */
    private boolean readAgainQueued;

    AbstractEpollChannel(Channel parent, EventLoop eventLoop, LinuxSocket socket) {
        super(parent, IoInterest.requireLoop(eventLoop, EpollIoHandle.class, "epoll", "EpollIoHandler"));
        this.socket = socket;
        interest.alwaysSubmit(EpollIoOps.EPOLLET.value()); // not registered yet: nothing is submitted
    }

    /**
     * Epoll reported {@code ready} for this channel.
     *
     * @param ready the events that fired; event-loop thread only
     */
    protected abstract void ioReady(EpollIoOps ready);

    /** Reads one burst; called for input readiness and by the edge-triggered re-read. */
    protected abstract void readNow();

    /**
     * Loads what handling this channel's next event touches first, for {@link EpollIoHandler}'s
     * batched warm-up; a channel adds what its own read path touches. Returns a value of no meaning.
     */
    int warmUp() {
        return ChannelWarmUp.warmUp(this);
    }

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
        interest.register(eventLoop(), promise);
    }

    @Override
    protected void doDeregister() {
        interest.deregister();
    }

    /** Leaves epoll before the descriptor is released, so its number cannot be reused under our registration. */
    @Override
    protected void doClose() throws Exception {
        doDeregister();
        socket.close();
    }

    @Override
    protected void doBeginRead() {
        interest.beginRead(readOps());
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
        interest.setReadPending(false);
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
        if (interest.isReadPending() || config().isReadingAutomatically()) {
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
        interest.dropReadUnlessWanted(config(), readOps());
    }

    private void queueReadAgain() {
        if (!readAgainQueued) {
            readAgainQueued = true;
            eventLoop().execute(readAgain);
        }
    }

    private void readAgain() {
        readAgainQueued = false;
        if (isOpen() && maybeMoreToRead && (interest.isReadPending() || config().isReadingAutomatically())) {
            readNow();
        }
    }

    /** {@return true if a {@code read()} was asked for and not yet served} Event-loop thread only. */
    protected final boolean isReadPending() {
        return interest.isReadPending();
    }

    /**
     * Marks whether a {@code read()} is waiting to be served. Event-loop thread only.
     *
     * @param pending true when a read was asked for
     */
    protected final void setReadPending(boolean pending) {
        interest.setReadPending(pending);
    }

    /**
     * Adds {@code ops} to the events this channel waits for, updating the epoll registration when it changes.
     * Event-loop thread only.
     *
     * @param ops the events to add
     */
    protected final void addInterest(EpollIoOps ops) {
        interest.add(ops);
    }

    /**
     * Removes {@code ops} from the events this channel waits for, updating the epoll registration when it
     * changes. Event-loop thread only.
     *
     * @param ops the events to remove
     */
    protected final void removeInterest(EpollIoOps ops) {
        interest.remove(ops);
    }

    /**
     * {@return true if this channel waits for all of {@code ops}} Event-loop thread only.
     *
     * @param ops the events to test
     */
    protected final boolean hasInterest(EpollIoOps ops) {
        return interest.contains(ops);
    }

    /** Resubmits the interest with the current mode's bit; after close the registration is gone (doClose). */
    private void submitInterest() {
        interest.alwaysSubmit(mode == EpollMode.EDGE_TRIGGERED ? EpollIoOps.EPOLLET.value() : 0);
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
