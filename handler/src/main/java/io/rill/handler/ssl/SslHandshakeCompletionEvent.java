package io.rill.handler.ssl;

/** Fired by {@link SslHandler} once per channel when the handshake succeeded or failed. */
public final class SslHandshakeCompletionEvent extends SslCompletionEvent {

    /** The handshake succeeded. */
    public static final SslHandshakeCompletionEvent SUCCESS = new SslHandshakeCompletionEvent(null);

    /**
     * The handshake ended with {@code cause}; null means success, though {@link #SUCCESS} says so without
     * allocating.
     *
     * @param cause why it failed, or null
     */
    public SslHandshakeCompletionEvent(Throwable cause) {
        super(cause);
    }
}
