package io.rill.handler.proxy;

import java.net.SocketAddress;

/**
 * The proxy refused to open the tunnel: a SOCKS reply other than success, an HTTP status other than 2xx (407 excepted, see {@link ProxyAuthenticationException}). The message quotes the answer.
 */
public class ProxyRefusedException extends ProxyConnectException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message      what happened, naming the protocol, the proxy and its answer
     * @param protocol     the proxy protocol, such as {@code "SOCKS5"}
     * @param proxyAddress the proxy's address
     */
    public ProxyRefusedException(String message, String protocol, SocketAddress proxyAddress) {
        super(message, protocol, proxyAddress, null);
    }
}
