package io.rill.handler.ssl;

/** A TLS step (handshake, closure) finished, successfully or with a {@link #cause()}. */
public abstract class SslCompletionEvent {

    private final Throwable cause;

    SslCompletionEvent(Throwable cause) {
        this.cause = cause;
    }

    /**
     * Whether the step succeeded.
     *
     * @return true when there is no {@link #cause()}
     */
    public final boolean isSuccess() {
        return cause == null;
    }

    /**
     * Why it failed, or null on success.
     *
     * @return the cause, or null
     */
    public final Throwable cause() {
        return cause;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + (cause == null ? "(SUCCESS)" : "(" + cause + ")");
    }
}
