package io.rill.handler.ssl;

/** Fired by {@link SslHandler} once per channel when the handshake succeeded or failed. */
public final class SslHandshakeCompletionEvent extends SslCompletionEvent {

    public static final SslHandshakeCompletionEvent SUCCESS = new SslHandshakeCompletionEvent(null);

    public SslHandshakeCompletionEvent(Throwable cause) {
        super(cause);
    }
}
