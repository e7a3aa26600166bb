package io.rill.handler.ssl;

/** A TLS step (handshake, closure) finished, successfully or with a {@link #cause()}. */
public abstract class SslCompletionEvent {

    private final Throwable cause;

    SslCompletionEvent(Throwable cause) {
        this.cause = cause;
    }

    public final boolean isSuccess() {
        return cause == null;
    }

    /** Why it failed, or null on success. */
    public final Throwable cause() {
        return cause;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + (cause == null ? "(SUCCESS)" : "(" + cause + ")");
    }
}
