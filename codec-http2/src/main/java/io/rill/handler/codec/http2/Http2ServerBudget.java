package io.rill.handler.codec.http2;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.rill.util.LogRateLimit;
import io.rill.util.RillProperties;

/**
 * The content all of a server's HTTP/2 connections may hold together: request content received
 * and not yet consumed (its flow-control credit not returned) plus response content queued behind
 * the peer's windows or an unwritable socket, as each connection's {@code maxHeldBytes} counts it
 * ({@link Http2FrameCodec.Builder#maxHeldBytes}). Each connection already stays within its own
 * budget; this one bounds their sum, so many connections that each hold a little cannot together
 * exhaust direct memory (docs/security-cases.md, case H2-25).
 *
 * <p>When the sum goes over {@link #maxBytes()}, the connection holding the most is closed with
 * GOAWAY {@code ENHANCE_YOUR_CALM} and a log line naming this budget, then the next, until the sum
 * is back under it; meanwhile a connection that holds any content gets {@code REFUSED_STREAM} for
 * new streams (the closes run on the connections' own event loops, and new connections must not
 * refill what they free). Exhaustion is a refusal aimed at the greediest peers, never an
 * out-of-memory error, and a connection holding little (a client that reads its answers) is
 * neither closed nor refused. The log gets at most one line a second, counting the closes it left
 * out: an attack closes hundreds of connections, and a line costs its event loop milliseconds.
 *
 * <p>Connections report their count in steps of {@value #REPORT_STEP} bytes, so the sum may lag
 * each connection by that much. Thread-safe: the connections of one budget live on any event loop.
 */
public final class Http2ServerBudget {

    /** How far a connection's count may drift from what it reported before it reports again. */
    static final int REPORT_STEP = 16 * 1024;

    /**
     * The budget every server codec shares unless given another: a thirty-second of the direct
     * memory the buffer pool may use ({@link RillProperties#ALLOCATOR_MAX_DIRECT_MEMORY}, by default
     * the maximum heap size), so 16 MiB at {@code -Xmx512m} and 128 MiB at {@code -Xmx4g}. The pool
     * needs about twice what is held (its chunks are shared by buffers of different lifetimes), and
     * the rest is for everything else the server does.
     */
    public static final Http2ServerBudget DEFAULT =
            new Http2ServerBudget(Math.max(REPORT_STEP, RillProperties.ALLOCATOR_MAX_DIRECT_MEMORY / 32));

    private final long maxBytes;
    /** What the registered connections reported, summed. */
    private final AtomicLong held = new AtomicLong();
    /** What the connections already chosen to close reported when chosen: it is on its way back. */
    private final AtomicLong shedding = new AtomicLong();
    private final Set<Http2MemoryBudget> connections = ConcurrentHashMap.newKeySet();
    /** Closes for this budget are logged at most once a second. */
    private final LogRateLimit logLimit = new LogRateLimit(TimeUnit.SECONDS.toNanos(1));

    /**
     * A budget for a server's connections; give the same instance to every codec that shares it.
     *
     * @param maxBytes at least 1
     */
    public Http2ServerBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: > 0)");
        }
        this.maxBytes = maxBytes;
    }

    /** {@return the most content the connections may hold together} */
    public long maxBytes() {
        return maxBytes;
    }

    /** {@return the content the connections hold now, as they last reported it} */
    public long heldBytes() {
        return held.get();
    }

    /** {@return whether the connections hold more than {@link #maxBytes()} now} */
    boolean isOver() {
        return held.get() > maxBytes;
    }

    /**
     * Whether the close of one connection for this budget, at {@code now}, gets a log line: the
     * first does, then at most one a second.
     *
     * @param now the closing loop's clock, in nanoseconds
     * @return null to log nothing, else what the line adds: empty, or how many closes went unlogged since the last line
     */
    String logLine(long now) {
        long more = logLimit.tryLog(now);
        return more < 0 ? null : more == 0 ? "" : " (and " + more + " more connection(s) closed for it since the last such line)";
    }

    void register(Http2MemoryBudget connection) {
        connections.add(connection);
    }

    /** A connection closed: what it reported is no longer held. */
    void deregister(Http2MemoryBudget connection) {
        if (connections.remove(connection)) {
            held.addAndGet(-connection.reported());
            long chosen = connection.endShedding();
            if (chosen > 0) {
                shedding.addAndGet(-chosen);
            }
        }
    }

    /** A connection's count moved by {@code delta} since its last report. */
    void report(long delta) {
        long now = held.addAndGet(delta);
        if (delta > 0 && now - shedding.get() > maxBytes) {
            shedGreediest(now);
        }
    }

    /** Chooses the connection holding the most, not already chosen, and has it close. */
    private void shedGreediest(long now) {
        Http2MemoryBudget greediest = null;
        for (Http2MemoryBudget c : connections) {
            if (!c.isShedding() && (greediest == null || c.reported() > greediest.reported())) {
                greediest = c;
            }
        }
        if (greediest == null || greediest.reported() <= 0) {
            return;
        }
        long reported = greediest.markShedding();
        if (reported > 0) {
            shedding.addAndGet(reported);
            greediest.shed(now, maxBytes);
        }
    }
}
