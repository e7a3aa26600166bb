package io.rill.handler.proxy;

import java.net.SocketAddress;

/**
 * The proxy did not accept the client's credentials, or none of the authentication methods it offered: a SOCKS5 username/password failure, a SOCKS5 method selection of {@code NO ACCEPTABLE METHODS}, an HTTP {@code 407 Proxy Authentication Required}.
 */
public class ProxyAuthenticationException extends ProxyRefusedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message      what happened, naming the protocol, the proxy and its answer
     * @param protocol     the proxy protocol, such as {@code "SOCKS5"}
     * @param proxyAddress the proxy's address
     */
    public ProxyAuthenticationException(String message, String protocol, SocketAddress proxyAddress) {
        super(message, protocol, proxyAddress);
    }
}
