package io.rill.handler.ssl;

/**
 * Fired by {@link SslHandler} when the peer's side of the TLS session ended: successfully when a
 * close_notify arrived, with a cause when the connection closed without one (a possible
 * truncation attack, RFC 8446 §6.1) or the engine failed.
 */
public final class SslCloseCompletionEvent extends SslCompletionEvent {

    public static final SslCloseCompletionEvent SUCCESS = new SslCloseCompletionEvent(null);

    public SslCloseCompletionEvent(Throwable cause) {
        super(cause);
    }
}
