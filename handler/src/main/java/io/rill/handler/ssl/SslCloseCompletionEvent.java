package io.rill.handler.ssl;

/**
 * Fired by {@link SslHandler} when the peer's side of the TLS session ended: successfully when a
 * close_notify arrived, with a cause when the connection closed without one (a possible
 * truncation attack, RFC 8446 §6.1) or the engine failed.
 */
public final class SslCloseCompletionEvent extends SslCompletionEvent {

    /** The peer's close_notify arrived. */
    public static final SslCloseCompletionEvent SUCCESS = new SslCloseCompletionEvent(null);

    /**
     * The peer's side ended with {@code cause}; null means success, though {@link #SUCCESS} says so without
     * allocating.
     *
     * @param cause why it ended without a close_notify, or null
     */
    public SslCloseCompletionEvent(Throwable cause) {
        super(cause);
    }
}
