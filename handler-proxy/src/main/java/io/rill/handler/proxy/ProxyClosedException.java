package io.rill.handler.proxy;

import java.net.SocketAddress;

/**
 * The proxy closed the connection before the tunnel was up, as some proxies do instead of answering a refusal.
 */
public class ProxyClosedException extends ProxyConnectException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message      what happened, naming the protocol, the proxy and its answer
     * @param protocol     the proxy protocol, such as {@code "SOCKS5"}
     * @param proxyAddress the proxy's address
     */
    public ProxyClosedException(String message, String protocol, SocketAddress proxyAddress) {
        super(message, protocol, proxyAddress, null);
    }
}
