package io.rill.handler.ssl;

/** Fired by {@link SniHandler} once it has read the ClientHello's server name, or failed to. */
public final class SniCompletionEvent extends SslCompletionEvent {

    private final String hostname;

    public SniCompletionEvent(String hostname) {
        super(null);
        this.hostname = hostname;
    }

    public SniCompletionEvent(String hostname, Throwable cause) {
        super(cause);
        this.hostname = hostname;
    }

    /** The requested host name (lower case), or null if the client sent none or it could not be read. */
    public String hostname() {
        return hostname;
    }

    @Override
    public String toString() {
        return "SniCompletionEvent(" + hostname + (isSuccess() ? ")" : ", " + cause() + ")");
    }
}
