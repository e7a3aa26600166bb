package io.rill.channel;

/**
 * Precomputed forwarding: for every context and every event, the context that event goes to
 * next, so dispatch is one array load however many skippable handlers sit in between.
 *
 * <pre>
 *   slot:     0 .. 8             9 .. 17               18
 *   event:    inbound events     outbound operations   write-and-flush
 *   (slot i of a single event is the index of its {@link ChannelHandlerMask} bit)
 *
 *   HEAD ── A(read) ── B(nothing) ── C(read, other executor) ── D(read) ── TAIL
 *   A.routes[CHANNEL_READ] = C: B is skipped; C is never skipped, it runs elsewhere
 *   C.routes[CHANNEL_READ] = D: the walk from C compares with C's executor
 * </pre>
 *
 * <p>The target of event {@code e} from context {@code c} is the first context past {@code c}
 * in e's direction whose handler overrides e (mask bit) or which runs on another executor than
 * {@code c}: walking past a context on another executor could let an event overtake earlier
 * ones still queued there. This is exactly the walk dispatch used to do per event; it now runs
 * once per structural change, under the pipeline's lock, over a list of a few contexts.
 *
 * <p>Routes ignore the life-cycle state on purpose: a context whose {@code handlerAdded} is still
 * pending receives the events it handles and runs {@code handlerAdded} first (so none precedes
 * it), and a removed context is unlinked, which reroutes everyone around it.
 *
 * <p>Each context's routes are an immutable array published through one volatile write, so a
 * thread dispatching concurrently sees either the whole old routing or the whole new one. Both
 * are correct: an old route may lead into a just-removed context, which keeps its own routes
 * and forwards what reaches it, as the linked list did before.
 */
final class EventRoutes {

    /** Slot of writeAndFlush: the first context that overrides write or flush. */
    static final int WRITE_AND_FLUSH = 18;
    static final int SLOTS = 19;

    private static final int INBOUND_SLOTS = ChannelHandlerMask.ALL_INBOUND;
    private static final int OUTBOUND_SLOTS = ChannelHandlerMask.ALL_OUTBOUND | 1 << WRITE_AND_FLUSH;

    private EventRoutes() {
    }

    /** Slot of a single-event mask bit; constant-folded by the JIT when {@code bit} is a constant. */
    static int slot(int bit) {
        return Integer.numberOfTrailingZeros(bit);
    }

    /**
     * Routes from {@code from}, following its current links; works for unlinked contexts too,
     * whose links still lead into the pipeline. A slot stays null past either end of the list
     * (no inbound event leaves the tail, no operation leaves the head).
     */
    static HandlerContext[] compute(HandlerContext from) {
        HandlerContext[] routes = new HandlerContext[SLOTS];
        fill(routes, from, INBOUND_SLOTS, true);
        fill(routes, from, OUTBOUND_SLOTS, false);
        return routes;
    }

    private static void fill(HandlerContext[] routes, HandlerContext from, int slots, boolean inbound) {
        int pending = slots;
        for (HandlerContext c = inbound ? from.next : from.prev; c != null && pending != 0;
             c = inbound ? c.next : c.prev) {
            int hit = c.executor() != from.executor() ? pending : pending & slotsOf(c.executionMask);
            pending &= ~hit;
            for (int bits = hit; bits != 0; bits &= bits - 1) {
                routes[Integer.numberOfTrailingZeros(bits)] = c;
            }
        }
    }

    /** The slots a handler with {@code mask} stops: its own events, plus writeAndFlush if it takes either half. */
    private static int slotsOf(int mask) {
        boolean writeOrFlush = (mask & (ChannelHandlerMask.WRITE | ChannelHandlerMask.FLUSH)) != 0;
        return writeOrFlush ? mask | 1 << WRITE_AND_FLUSH : mask;
    }

    /**
     * Recomputes the routes of every linked context after a change; caller holds the pipeline's
     * lock. {@code fresh} (a just-linked context, or null) gets its routes first, so no route
     * can lead to a context whose own routes are not yet set; {@code retired} (an unlinked
     * context whose links were redirected, or null) is recomputed too.
     */
    static void recompute(HandlerContext head, HandlerContext fresh, HandlerContext retired) {
        if (fresh != null) {
            fresh.routes = compute(fresh);
        }
        if (retired != null) {
            retired.routes = compute(retired);
        }
        for (HandlerContext c = head; c != null; c = c.next) {
            if (c != fresh) {
                c.routes = compute(c);
            }
        }
    }
}
