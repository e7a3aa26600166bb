package io.rill.handler.timeout;

/** Which direction of a channel has been quiet for too long; see {@link IdleStateHandler}. */
public enum IdleState {
    /** Nothing was read within the reader idle time. */
    READER_IDLE,
    /** Nothing was written within the writer idle time. */
    WRITER_IDLE,
    /** Nothing was read nor written within the all-idle time. */
    ALL_IDLE
}
