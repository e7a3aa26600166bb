package io.rill.handler.timeout;

/**
 * The user event {@link IdleStateHandler} fires when a channel has been idle. For each
 * {@link IdleState} there are two shared instances: the first event of an idle stretch, and the
 * subsequent ones fired while the channel stays idle (one per idle period).
 */
public final class IdleStateEvent {

    public static final IdleStateEvent FIRST_READER_IDLE = new IdleStateEvent(IdleState.READER_IDLE, true);
    public static final IdleStateEvent READER_IDLE = new IdleStateEvent(IdleState.READER_IDLE, false);
    public static final IdleStateEvent FIRST_WRITER_IDLE = new IdleStateEvent(IdleState.WRITER_IDLE, true);
    public static final IdleStateEvent WRITER_IDLE = new IdleStateEvent(IdleState.WRITER_IDLE, false);
    public static final IdleStateEvent FIRST_ALL_IDLE = new IdleStateEvent(IdleState.ALL_IDLE, true);
    public static final IdleStateEvent ALL_IDLE = new IdleStateEvent(IdleState.ALL_IDLE, false);

    private final IdleState state;
    private final boolean first;

    private IdleStateEvent(IdleState state, boolean first) {
        this.state = state;
        this.first = first;
    }

    /** The shared event for {@code state}, first of its stretch or not. */
    public static IdleStateEvent of(IdleState state, boolean first) {
        return switch (state) {
            case READER_IDLE -> first ? FIRST_READER_IDLE : READER_IDLE;
            case WRITER_IDLE -> first ? FIRST_WRITER_IDLE : WRITER_IDLE;
            case ALL_IDLE -> first ? FIRST_ALL_IDLE : ALL_IDLE;
        };
    }

    public IdleState state() {
        return state;
    }

    /** True for the first event since the channel was last active in this direction. */
    public boolean isFirst() {
        return first;
    }

    @Override
    public String toString() {
        return "IdleStateEvent(" + state + (first ? ", first" : "") + ')';
    }
}
