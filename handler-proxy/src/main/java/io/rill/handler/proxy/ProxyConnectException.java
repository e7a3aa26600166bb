package io.rill.handler.proxy;

import java.net.ConnectException;
import java.net.SocketAddress;

/**
 * Connecting through a proxy failed. The message names the protocol, the proxy's address and what
 * the proxy answered, e.g. {@code SOCKS5 proxy 127.0.0.1:1080 refused: connection refused (reply 0x05)}.
 * The subclasses tell the kinds of failure apart; this class itself is used when the proxy could not
 * be reached or answered something malformed (the cause says what).
 */
public class ProxyConnectException extends ConnectException {

    private static final long serialVersionUID = 1L;

    /** The proxy protocol, such as {@code "SOCKS5"}. */
    private final String protocol;
    /** The proxy's address; not serialized (a socket address need not be serializable). */
    private final transient SocketAddress proxyAddress;

    /**
     * Creates the exception.
     *
     * @param message      what happened, naming the protocol, the proxy and its answer
     * @param protocol     the proxy protocol, such as {@code "SOCKS5"} or {@code "HTTP"}
     * @param proxyAddress the proxy's address
     * @param cause        the failure behind it, or null
     */
    public ProxyConnectException(String message, String protocol, SocketAddress proxyAddress, Throwable cause) {
        super(message);
        this.protocol = protocol;
        this.proxyAddress = proxyAddress;
        if (cause != null) {
            initCause(cause);
        }
    }

    /** {@return the proxy protocol, such as {@code "SOCKS5"}} */
    public String protocol() {
        return protocol;
    }

    /** {@return the address of the proxy} */
    public SocketAddress proxyAddress() {
        return proxyAddress;
    }
}
