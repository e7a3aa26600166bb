package io.rill.handler.timeout;

/**
 * The user event {@link IdleStateHandler} fires when a channel has been idle. For each
 * {@link IdleState} there are two shared instances: the first event of an idle stretch, and the
 * subsequent ones fired while the channel stays idle (one per idle period).
 */
public final class IdleStateEvent {

    /** The first reader-idle event since the channel last read. */
    public static final IdleStateEvent FIRST_READER_IDLE = new IdleStateEvent(IdleState.READER_IDLE, true);
    /** A later reader-idle event: the channel has still not read. */
    public static final IdleStateEvent READER_IDLE = new IdleStateEvent(IdleState.READER_IDLE, false);
    /** The first writer-idle event since a write last completed. */
    public static final IdleStateEvent FIRST_WRITER_IDLE = new IdleStateEvent(IdleState.WRITER_IDLE, true);
    /** A later writer-idle event: still no write has completed. */
    public static final IdleStateEvent WRITER_IDLE = new IdleStateEvent(IdleState.WRITER_IDLE, false);
    /** The first all-idle event since the channel last read or wrote. */
    public static final IdleStateEvent FIRST_ALL_IDLE = new IdleStateEvent(IdleState.ALL_IDLE, true);
    /** A later all-idle event: still neither read nor written. */
    public static final IdleStateEvent ALL_IDLE = new IdleStateEvent(IdleState.ALL_IDLE, false);

    private final IdleState state;
    private final boolean first;

    private IdleStateEvent(IdleState state, boolean first) {
        this.state = state;
        this.first = first;
    }

    /**
     * The shared event for {@code state}, first of its stretch or not.
     *
     * @param state the kind of idleness
     * @param first whether it is the first event of its stretch
     * @return one of the six shared constants
     */
    public static IdleStateEvent of(IdleState state, boolean first) {
        return switch (state) {
            case READER_IDLE -> first ? FIRST_READER_IDLE : READER_IDLE;
            case WRITER_IDLE -> first ? FIRST_WRITER_IDLE : WRITER_IDLE;
            case ALL_IDLE -> first ? FIRST_ALL_IDLE : ALL_IDLE;
        };
    }

    /**
     * Which kind of idleness this event reports.
     *
     * @return reader, writer or all idle
     */
    public IdleState state() {
        return state;
    }

    /**
     * True for the first event since the channel was last active in this direction.
     *
     * @return whether this is the first event of its stretch
     */
    public boolean isFirst() {
        return first;
    }

    @Override
    public String toString() {
        return "IdleStateEvent(" + state + (first ? ", first" : "") + ')';
    }
}
