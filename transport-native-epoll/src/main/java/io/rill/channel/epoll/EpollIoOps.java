package io.rill.channel.epoll;

import io.rill.channel.IoOps;

/**
 * A set of epoll event bits, as interest ({@code EPOLLIN}, {@code EPOLLOUT}, {@code EPOLLRDHUP},
 * {@code EPOLLET}) or readiness (those plus {@code EPOLLERR} and {@code EPOLLHUP}). Every set of
 * the six bits is made once, so the poller hands out readiness without allocating.
 */
public final class EpollIoOps implements IoOps {

    private static final int[] BITS = {Native.EPOLLIN, Native.EPOLLOUT, Native.EPOLLERR, Native.EPOLLHUP,
            Native.EPOLLRDHUP, Native.EPOLLET};
    private static final EpollIoOps[] CACHE = new EpollIoOps[1 << BITS.length];

    static {
        for (int index = 0; index < CACHE.length; index++) {
            int events = 0;
            for (int b = 0; b < BITS.length; b++) {
                if ((index & (1 << b)) != 0) {
                    events |= BITS[b];
                }
            }
            CACHE[index] = new EpollIoOps(events);
        }
    }

    /** The empty set. */
    public static final EpollIoOps NONE = valueOf(0);
    /** Input is ready (or a listening socket has a connection to accept). */
    public static final EpollIoOps EPOLLIN = valueOf(Native.EPOLLIN);
    /** Output space is available. */
    public static final EpollIoOps EPOLLOUT = valueOf(Native.EPOLLOUT);
    /** The peer shut its output down (FIN). */
    public static final EpollIoOps EPOLLRDHUP = valueOf(Native.EPOLLRDHUP);
    /** Edge-triggered registration: an event is reported once per change, not while it lasts. */
    public static final EpollIoOps EPOLLET = valueOf(Native.EPOLLET);

    private final int events;

    private EpollIoOps(int events) {
        this.events = events;
    }

    /**
     * The set for {@code events}; bits other than the six above (EPOLLPRI, ...) are dropped.
     *
     * @param events {@code EPOLL*} bits
     * @return the shared instance for those bits
     */
    public static EpollIoOps valueOf(int events) {
        int index = 0;
        for (int b = 0; b < BITS.length; b++) {
            if ((events & BITS[b]) != 0) {
                index |= 1 << b;
            }
        }
        return CACHE[index];
    }

    @Override
    public long value() {
        return events & 0xFFFFFFFFL;
    }

    /** {@return the {@code EPOLL*} bits} */
    public int intValue() {
        return events;
    }

    /**
     * {@return true if every event of {@code other} is in this set}
     *
     * @param other the events to test
     */
    public boolean contains(EpollIoOps other) {
        return (events & other.events) == other.events;
    }

    /**
     * {@return this set plus the events of {@code other}}
     *
     * @param other the events to add
     */
    public EpollIoOps with(EpollIoOps other) {
        return valueOf(events | other.events);
    }

    /**
     * {@return this set without the events of {@code other}}
     *
     * @param other the events to remove
     */
    public EpollIoOps without(EpollIoOps other) {
        return valueOf(events & ~other.events);
    }

    /** {@return true if EPOLLIN is in the set} */
    public boolean isReadable() {
        return (events & Native.EPOLLIN) != 0;
    }

    /** {@return true if EPOLLOUT is in the set} */
    public boolean isWritable() {
        return (events & Native.EPOLLOUT) != 0;
    }

    /** {@return true if the peer shut its output down (FIN): EPOLLRDHUP} */
    public boolean isReadHangUp() {
        return (events & Native.EPOLLRDHUP) != 0;
    }

    /** {@return true on an error (EPOLLERR) or a hang-up of both directions (EPOLLHUP), e.g. a reset} */
    public boolean isErrorOrHangUp() {
        return (events & (Native.EPOLLERR | Native.EPOLLHUP)) != 0;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("EpollIoOps(");
        String[] names = {"IN", "OUT", "ERR", "HUP", "RDHUP", "ET"};
        for (int b = 0; b < BITS.length; b++) {
            if ((events & BITS[b]) != 0) {
                sb.append(names[b]).append('|');
            }
        }
        if (sb.charAt(sb.length() - 1) == '|') {
            sb.setLength(sb.length() - 1);
        } else {
            sb.append("NONE");
        }
        return sb.append(')').toString();
    }
}
