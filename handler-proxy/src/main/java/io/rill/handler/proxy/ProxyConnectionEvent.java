package io.rill.handler.proxy;

import java.net.SocketAddress;

/**
 * Fired as a user event, just after {@code channelActive}, when a proxy handler has opened its
 * tunnel. {@code Channel.remoteAddress()} is the proxy's address; this event carries the destination.
 *
 * @param protocol           the proxy protocol, such as {@code "SOCKS5"} or {@code "HTTP"}
 * @param authScheme         the authentication used: {@code "none"}, {@code "password"} or {@code "basic"}
 * @param proxyAddress       the proxy's address
 * @param destinationAddress the address the tunnel leads to, as given to {@code connect}
 */
public record ProxyConnectionEvent(String protocol, String authScheme, SocketAddress proxyAddress,
                                   SocketAddress destinationAddress) {
}
