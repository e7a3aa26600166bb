package io.rill.handler.codec.stomp;

/**
 * An end of line between frames: the heart-beat a peer sends to say it is alive. The decoder passes
 * at most one per read, however many EOLs came; the encoder writes one {@code \n}.
 */
public final class StompHeartbeat {

    /** The only instance. */
    public static final StompHeartbeat INSTANCE = new StompHeartbeat();

    private StompHeartbeat() {
    }

    @Override
    public String toString() {
        return "StompHeartbeat";
    }
}
