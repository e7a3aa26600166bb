package io.rill.handler.proxy;

import java.net.SocketAddress;

/**
 * The proxy did not finish its handshake within the handler's handshake timeout ({@link ProxyHandler#setHandshakeTimeoutMillis}, 10 seconds by default).
 */
public class ProxyHandshakeTimeoutException extends ProxyConnectException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message      what happened, naming the protocol, the proxy and its answer
     * @param protocol     the proxy protocol, such as {@code "SOCKS5"}
     * @param proxyAddress the proxy's address
     */
    public ProxyHandshakeTimeoutException(String message, String protocol, SocketAddress proxyAddress) {
        super(message, protocol, proxyAddress, null);
    }
}
