package io.rill.channel;

/**
 * Fired as a user event just before Rill closes a channel because a resource ran out: memory for
 * its buffers, or a limit on what one connection may hold. A handler can count these, or tell
 * the peer; the channel closes whatever it does. Rill also logs one warning line per channel
 * (rate-limited across channels), so an operator sees why connections end.
 */
public final class ResourceExhaustedEvent {

    private final String reason;
    private final Throwable cause;

    /**
     * An event naming what ran out.
     *
     * @param reason what ran out, and what to change about it
     * @param cause the failure that showed it, or null
     */
    public ResourceExhaustedEvent(String reason, Throwable cause) {
        if (reason == null) {
            throw new NullPointerException("reason");
        }
        this.reason = reason;
        this.cause = cause;
    }

    /** {@return what ran out, and what to change about it, in a sentence} */
    public String reason() {
        return reason;
    }

    /** {@return the failure that showed it, or null} */
    public Throwable cause() {
        return cause;
    }

    @Override
    public String toString() {
        return "ResourceExhaustedEvent(" + reason + ')';
    }
}
