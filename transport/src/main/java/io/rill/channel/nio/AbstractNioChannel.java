package io.rill.channel.nio;

import java.io.IOException;
import java.nio.channels.SelectableChannel;

import io.rill.channel.AbstractChannel;
import io.rill.channel.Channel;
import io.rill.channel.EventLoop;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.channel.internal.IoInterest;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Promise;

/**
 * What every NIO channel shares: a JDK {@link SelectableChannel}, its registration with the
 * loop's {@link NioIoHandler}, and the interest set (kept as the native transport keeps its own,
 * so operations asked for before the registration completed are submitted with it). Readiness
 * arrives in {@link #ioReady}. Loop-confined like every transport method.
 */
public abstract class AbstractNioChannel extends AbstractChannel {

    private static final InternalLogger LOG = InternalLogger.get(AbstractNioChannel.class);

    /** The JDK channel; open from construction until doClose. */
    private final SelectableChannel javaChannel;
    /** The selector registration, the operations wanted, and whether a read() waits. */
    private final IoInterest<NioIoOps> interest =
            new IoInterest<>(new Handle(), bits -> NioIoOps.valueOf((int) bits));

    /**
     * A channel over {@code javaChannel}, which is put in non-blocking mode.
     *
     * @param parent the server channel that accepted this one, or null
     * @param eventLoop a loop running a {@link NioIoHandler}
     * @param javaChannel the JDK channel underneath
     * @throws IllegalArgumentException if {@code eventLoop} does not run NIO
     */
    protected AbstractNioChannel(Channel parent, EventLoop eventLoop, SelectableChannel javaChannel) {
        super(parent, checkLoop(eventLoop));
        if (javaChannel == null) {
            throw new NullPointerException("javaChannel");
        }
        this.javaChannel = javaChannel;
    }

    private static EventLoop checkLoop(EventLoop loop) {
        return IoInterest.requireLoop(loop, NioIoHandle.class, "NIO", "NioIoHandler");
    }

    /** {@return the JDK channel underneath} */
    protected SelectableChannel javaChannel() {
        return javaChannel;
    }

    /**
     * The selector reported {@code ready} for this channel.
     *
     * @param ready the operations that are ready; event-loop thread only
     */
    protected abstract void ioReady(NioIoOps ready);

    @Override
    public boolean isOpen() {
        return javaChannel.isOpen();
    }

    @Override
    protected void doRegister(Promise<Void> promise) {
        interest.register(eventLoop(), promise);
    }

    @Override
    protected void doDeregister() {
        interest.deregister();
    }

    @Override
    protected void doClose() throws Exception {
        javaChannel.close();
    }

    /** {@return the readiness that means input: OP_READ, or OP_ACCEPT for a listening socket} */
    protected NioIoOps readOps() {
        return NioIoOps.READ;
    }

    @Override
    protected void doBeginRead() {
        interest.beginRead(readOps());
    }

    @Override
    protected void autoReadCleared() {
        if (eventLoop().inEventLoop()) {
            dropReadInterestUnlessWanted();
        } else {
            eventLoop().execute(this::dropReadInterestUnlessWanted);
        }
    }

    /** After a read burst: stop watching input unless a read() is pending or AUTO_READ is on. */
    protected final void dropReadInterestUnlessWanted() {
        interest.dropReadUnlessWanted(config(), readOps());
    }

    /** {@return true if a {@code read()} was asked for and not yet served} Event-loop thread only. */
    protected final boolean isReadPending() {
        return interest.isReadPending();
    }

    /**
     * Marks a read() as asked for (true) or as being served now (false).
     *
     * @param pending true when a read is asked for
     */
    protected final void setReadPending(boolean pending) {
        interest.setReadPending(pending);
    }

    /**
     * Adds {@code ops} to the interest set.
     *
     * @param ops the operations to add; event-loop thread only
     */
    protected final void addInterest(NioIoOps ops) {
        interest.add(ops);
    }

    /**
     * Removes {@code ops} from the interest set.
     *
     * @param ops the operations to remove; event-loop thread only
     */
    protected final void removeInterest(NioIoOps ops) {
        interest.remove(ops);
    }

    /**
     * {@return true if the interest set holds all of {@code ops}} Event-loop thread only.
     *
     * @param ops the operations to test
     */
    protected final boolean hasInterest(NioIoOps ops) {
        return interest.contains(ops);
    }

    /** The bridge from the selector to the channel; the channel itself cannot be an IoHandle (close() clashes). */
    private final class Handle implements NioIoHandle {
        @Override
        public SelectableChannel selectableChannel() {
            return javaChannel;
        }

        @Override
        public void handle(IoRegistration r, IoOps readyOps) {
            ioReady((NioIoOps) readyOps);
        }

        /** The loop is shutting down or this handle threw: close the channel the ordinary way. */
        @Override
        public void close() {
            AbstractNioChannel.this.close(voidPromise());
        }

        @Override
        public String toString() {
            return AbstractNioChannel.this.toString();
        }
    }

    /** Closes a JDK channel we failed to wrap, logging rather than hiding the first error. */
    static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            LOG.debug("Failed to close {}", closeable, e);
        }
    }
}
