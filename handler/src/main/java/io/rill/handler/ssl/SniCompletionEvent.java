package io.rill.handler.ssl;

/** Fired by {@link SniHandler} once it has read the ClientHello's server name, or failed to. */
public final class SniCompletionEvent extends SslCompletionEvent {

    private final String hostname;

    /**
     * The ClientHello was read.
     *
     * @param hostname the server name it asked for, lower case; null if it sent none
     */
    public SniCompletionEvent(String hostname) {
        super(null);
        this.hostname = hostname;
    }

    /**
     * Reading the ClientHello failed; the connection is closing.
     *
     * @param hostname the server name, if it was read before the failure; else null
     * @param cause    why it failed
     */
    public SniCompletionEvent(String hostname, Throwable cause) {
        super(cause);
        this.hostname = hostname;
    }

    /**
     * The requested host name (lower case), or null if the client sent none or it could not be read.
     *
     * @return the host name, or null
     */
    public String hostname() {
        return hostname;
    }

    @Override
    public String toString() {
        return "SniCompletionEvent(" + hostname + (isSuccess() ? ")" : ", " + cause() + ")");
    }
}
