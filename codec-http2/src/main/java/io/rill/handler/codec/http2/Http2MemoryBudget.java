package io.rill.handler.codec.http2;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The content one connection holds, counted against its {@code maxHeldBytes}
 * ({@link Http2FrameCodec.Builder#maxHeldBytes}) and reported to the server's
 * {@link Http2ServerBudget}. Two kinds are counted:
 *
 * <ul>
 *   <li>inbound: DATA received whose credit the application has not returned
 *       ({@link Http2WindowUpdateFrame}): in the codec's hands, an aggregator's, or a message the
 *       application is still assembling; flow control already bounds it by the connection window;
 *   <li>outbound: content written by the application and queued behind the peer's windows or
 *       behind an unwritable socket.
 * </ul>
 *
 * <p>Content echoed before its credit is returned counts on both sides, which overstates what is
 * held rather than understating it. Over the budget the connection is "over" until it is back
 * under half of it: it grants no connection window, its streams are not writable and new streams
 * are refused ({@link Http2Connection}).
 *
 * <p>Event loop only, except {@link #reported()}, {@link #isShedding()}, {@link #markShedding()}
 * and {@link #shed}, which the server budget calls from any thread.
 */
final class Http2MemoryBudget {

    private static final VarHandle REPORTED;
    private static final VarHandle SHEDDING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            REPORTED = lookup.findVarHandle(Http2MemoryBudget.class, "reported", long.class);
            SHEDDING = lookup.findVarHandle(Http2MemoryBudget.class, "sheddingReported", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Closes this connection when the server's budget chose it; called from any thread. */
    private final Shedder shedder;
    private final long limit;
    /** The server's budget, or null (a client's connection answers to nobody). */
    private final Http2ServerBudget server;
    /** Bytes received and not consumed; never negative. */
    private long inbound;
    /** Bytes queued for sending; never negative. */
    private long outbound;
    /** Whether the count went over {@link #limit} and has not yet come back under half of it. */
    private boolean over;
    /** What the server budget has of ours; written on the event loop, read anywhere. */
    @SuppressWarnings("unused") // through REPORTED
    private volatile long reported;
    /** What {@link #reported} was when the server budget chose this connection to close; 0 if not chosen, -1 once closed. */
    @SuppressWarnings("unused") // through SHEDDING
    private volatile long sheddingReported;
    private boolean registered;
    /** Set by {@link #close()}: nothing is reported any more. */
    private boolean closed;

    /** How the server's budget closes the connection it chose: on the connection's own event loop. */
    interface Shedder {

        /** Called from any thread: this connection reported {@code held}, the server holds {@code serverHeld}, over {@code serverMax}. */
        void shed(long held, long serverHeld, long serverMax);
    }

    Http2MemoryBudget(long limit, Http2ServerBudget server, Shedder shedder) {
        this.shedder = shedder;
        this.limit = limit;
        this.server = server;
    }

    long limit() {
        return limit;
    }

    /** {@return the content held now} */
    long held() {
        return inbound + outbound;
    }

    boolean isOver() {
        return over;
    }

    /**
     * Whether a new stream should be refused because the server is over its budget: only a
     * connection that holds content is, so a client whose answers have gone out is still served.
     */
    boolean refusesForServer() {
        return server != null && inbound + outbound > 0 && server.isOver();
    }

    Http2ServerBudget server() {
        return server;
    }

    /** {@code bytes} of DATA arrived. @return whether {@link #isOver()} changed */
    boolean received(int bytes) {
        inbound += bytes;
        return changed();
    }

    /** The application consumed {@code bytes} of received content. @return whether {@link #isOver()} changed */
    boolean consumed(int bytes) {
        inbound = Math.max(0, inbound - bytes);
        return changed();
    }

    /** {@code bytes} of content were queued (positive) or left the queue (negative). @return whether {@link #isOver()} changed */
    boolean queued(long bytes) {
        outbound = Math.max(0, outbound + bytes);
        return changed();
    }

    private boolean changed() {
        long held = inbound + outbound;
        if (server != null && !closed) {
            long last = (long) REPORTED.getOpaque(this);
            long drift = held - last;
            if (drift >= Http2ServerBudget.REPORT_STEP || drift <= -Http2ServerBudget.REPORT_STEP || held == 0 && last != 0) {
                report(held, last);
            }
        }
        boolean next = over ? held > limit / 2 : held > limit;
        if (next == over) {
            return false;
        }
        over = next;
        return true;
    }

    private void report(long held, long last) {
        if (!registered) {
            registered = true;
            server.register(this);
        }
        REPORTED.setRelease(this, held);
        server.report(held - last);
    }

    /** The connection closed: nothing is held any more. */
    void close() {
        closed = true;
        inbound = 0;
        outbound = 0;
        over = false;
        if (registered) {
            registered = false;
            server.deregister(this);
        }
    }

    // ---------------------------------------------------------------- called by the server budget, any thread

    long reported() {
        return (long) REPORTED.getAcquire(this);
    }

    boolean isShedding() {
        return (long) SHEDDING.getAcquire(this) != 0;
    }

    /** Marks this connection chosen to close. @return what it had reported, or 0 if another thread chose it first */
    long markShedding() {
        long reported = reported();
        return reported > 0 && SHEDDING.compareAndSet(this, 0L, reported) ? reported : 0;
    }

    /**
     * The connection is gone: it can be chosen no more.
     *
     * @return what it had reported when it was chosen to close, or 0 if it never was
     */
    long endShedding() {
        return Math.max(0, (long) SHEDDING.getAndSet(this, -1L));
    }

    /** Closes the connection on its own event loop: the server holds {@code serverHeld}, over {@code serverMax}. */
    void shed(long serverHeld, long serverMax) {
        shedder.shed(reported(), serverHeld, serverMax);
    }
}
