package io.rill.channel;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Precomputed forwarding: for every context and every event, the context that event goes to
 * next, so dispatch costs a few loads however many skippable handlers sit in between.
 *
 * <pre>
 *   slot:     0 .. 8             9 .. 17               18
 *   event:    inbound events     outbound operations   write-and-flush
 *   (slot i of a single event is the index of its {@link ChannelHandlerMask} bit)
 *
 *   HEAD ── A(read) ── B(nothing) ── C(read, other executor) ── D(read) ── TAIL
 *   A's CHANNEL_READ goes to C: B is skipped; C is never skipped, it runs elsewhere
 *   C's CHANNEL_READ goes to D: the walk from C compares with C's executor
 * </pre>
 *
 * <p>The target of event {@code e} from context {@code c} is the first context past {@code c}
 * in e's direction whose handler overrides e (mask bit) or which runs on another executor than
 * {@code c}: walking past a context on another executor could let an event overtake earlier
 * ones still queued there. The walk runs once per structural change, under the pipeline's lock.
 *
 * <p>Layout, chosen so an idle connection carries little: the routing depends only on the
 * pipeline's shape (each position's mask, and which positions share an executor), so the table
 * of target positions is interned per shape and shared by every pipeline of that shape (a
 * server's thousands of connections have one or two shapes). What is per pipeline is one of
 * these objects and its {@link #order}: the contexts by position.
 *
 * <pre>
 *   table[position * SLOTS + slot] = position of the target, or -1 (none: past the end)
 *   order[position]                = the context at that position
 * </pre>
 *
 * <p>A context holds the routing of its pipeline's current generation and its own position in
 * it, both replaced under the pipeline's lock; routing and order are immutable, so a thread
 * dispatching concurrently sees a whole old routing or a whole new one. Both are correct: an old
 * route may lead into a just-removed context, which keeps its own routing and forwards what
 * reaches it, as the linked list did before. The position is checked against {@link #order}
 * (a racing reader may pair a new position with an old routing) and searched for if stale.
 *
 * <p>Routes ignore the life-cycle state on purpose: a context whose {@code handlerAdded} is still
 * pending receives the events it handles and runs {@code handlerAdded} first (so none precedes
 * it), and a removed context is unlinked, which reroutes everyone around it.
 */
final class EventRoutes {

    /** Slot of writeAndFlush: the first context that overrides write or flush. */
    static final int WRITE_AND_FLUSH = 18;
    static final int SLOTS = 19;

    private static final int INBOUND_SLOTS = ChannelHandlerMask.ALL_INBOUND;
    private static final int OUTBOUND_SLOTS = ChannelHandlerMask.ALL_OUTBOUND | 1 << WRITE_AND_FLUSH;

    /** Interned tables by shape. Bounded: an application that keeps inventing shapes gets private tables. */
    private static final int MAX_SHAPES = 4096;
    private static final ConcurrentHashMap<Shape, int[]> TABLES = new ConcurrentHashMap<>();

    /** The contexts by position; immutable. */
    final HandlerContext[] order;
    /** Target positions per (position, slot), see the class comment; immutable and usually shared. */
    private final int[] table;

    private EventRoutes(HandlerContext[] order, int[] table) {
        this.order = order;
        this.table = table;
    }

    /** Slot of a single-event mask bit; constant-folded by the JIT when {@code bit} is a constant. */
    static int slot(int bit) {
        return Integer.numberOfTrailingZeros(bit);
    }

    /** The next context from {@code from} (which claims {@code position}) for {@code slot}, or null past the end. */
    HandlerContext target(HandlerContext from, int position, int slot) {
        HandlerContext[] order = this.order;
        if (position >= order.length || order[position] != from) {
            position = positionOf(from);
        }
        int target = table[position * SLOTS + slot];
        return target < 0 ? null : order[target];
    }

    /** {@return true if this routing and {@code other} use the same table object} For tests of the sharing. */
    boolean sharesTableWith(EventRoutes other) {
        return table == other.table;
    }

    private int positionOf(HandlerContext ctx) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] == ctx) {
                return i;
            }
        }
        throw new IllegalStateException("context '" + ctx.name() + "' is not in its own routing");
    }

    /**
     * Recomputes the routing of every linked context after a change; caller holds the pipeline's
     * lock. {@code fresh} (a just-linked context, or null) gets its routing first, so no route
     * can lead to a context whose own routing is not yet set; {@code retired} (an unlinked
     * context whose links were redirected into its replacement, or null) gets a routing of its
     * own that follows those links.
     */
    static void recompute(HandlerContext head, HandlerContext fresh, HandlerContext retired) {
        int n = 0;
        for (HandlerContext c = head; c != null; c = c.next) {
            n++;
        }
        HandlerContext[] order = new HandlerContext[n];
        int i = 0;
        for (HandlerContext c = head; c != null; c = c.next) {
            order[i++] = c;
        }
        EventRoutes routing = new EventRoutes(order, tableFor(order));
        if (fresh != null) {
            publish(fresh, routing, indexOf(order, fresh));
        }
        if (retired != null) {
            publish(retired, privateRouting(retired), 0);
        }
        for (i = 0; i < n; i++) {
            if (order[i] != fresh) {
                publish(order[i], routing, i);
            }
        }
    }

    /** Position before routing: a reader that sees the new routing sees this position or a later one. */
    private static void publish(HandlerContext ctx, EventRoutes routing, int position) {
        ctx.routePosition = position;
        ctx.routes = routing;
    }

    private static int indexOf(HandlerContext[] order, HandlerContext ctx) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] == ctx) {
                return i;
            }
        }
        throw new IllegalStateException("context '" + ctx.name() + "' is not linked");
    }

    /** The shared table for this sequence of contexts: looked up by shape, computed on a miss. */
    private static int[] tableFor(HandlerContext[] order) {
        Shape shape = Shape.of(order);
        int[] table = TABLES.get(shape);
        if (table == null) {
            table = shape.table();
            if (TABLES.size() < MAX_SHAPES) {
                int[] raced = TABLES.putIfAbsent(shape, table);
                if (raced != null) {
                    table = raced;
                }
            }
        }
        return table;
    }

    /**
     * A routing for one unlinked context, from its own links: position 0 is the context, the
     * others are its targets in the order first met.
     */
    private static EventRoutes privateRouting(HandlerContext from) {
        HandlerContext[] targets = new HandlerContext[SLOTS];
        fill(targets, from, INBOUND_SLOTS, true);
        fill(targets, from, OUTBOUND_SLOTS, false);
        HandlerContext[] order = new HandlerContext[SLOTS + 1];
        order[0] = from;
        int n = 1;
        int[] table = new int[SLOTS];
        for (int s = 0; s < SLOTS; s++) {
            HandlerContext t = targets[s];
            int at = -1;
            if (t != null) {
                for (int k = 1; k < n && at < 0; k++) {
                    if (order[k] == t) {
                        at = k;
                    }
                }
                if (at < 0) {
                    order[n] = t;
                    at = n++;
                }
            }
            table[s] = at;
        }
        return new EventRoutes(Arrays.copyOf(order, n), table);
    }

    /** The walk itself, over the links of a (possibly unlinked) context. */
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
     * What routing depends on: per position the handler's mask, and the first position on the
     * same executor (executors compare by identity, so this names the partition, not the executors).
     */
    private static final class Shape {
        private final int[] masks;
        private final int[] executors;
        private final int hash;

        private Shape(int[] masks, int[] executors) {
            this.masks = masks;
            this.executors = executors;
            this.hash = 31 * Arrays.hashCode(masks) + Arrays.hashCode(executors);
        }

        static Shape of(HandlerContext[] order) {
            int n = order.length;
            int[] masks = new int[n];
            int[] executors = new int[n];
            for (int i = 0; i < n; i++) {
                masks[i] = order[i].executionMask;
                int first = i;
                for (int k = 0; k < i; k++) {
                    if (order[k].executor() == order[i].executor()) {
                        first = k;
                        break;
                    }
                }
                executors[i] = first;
            }
            return new Shape(masks, executors);
        }

        /** The same walk as {@link #fill}, over positions instead of links. */
        int[] table() {
            int n = masks.length;
            int[] table = new int[n * SLOTS];
            Arrays.fill(table, -1);
            for (int from = 0; from < n; from++) {
                int pending = INBOUND_SLOTS;
                for (int c = from + 1; c < n && pending != 0; c++) {
                    pending = mark(table, from, c, pending);
                }
                pending = OUTBOUND_SLOTS;
                for (int c = from - 1; c >= 0 && pending != 0; c--) {
                    pending = mark(table, from, c, pending);
                }
            }
            return table;
        }

        private int mark(int[] table, int from, int c, int pending) {
            int hit = executors[c] != executors[from] ? pending : pending & slotsOf(masks[c]);
            for (int bits = hit; bits != 0; bits &= bits - 1) {
                table[from * SLOTS + Integer.numberOfTrailingZeros(bits)] = c;
            }
            return pending & ~hit;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Shape s && hash == s.hash && Arrays.equals(masks, s.masks)
                    && Arrays.equals(executors, s.executors);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
