package io.rill.handler.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** How a SOCKS handler names its destination: a name stays a name, an address becomes its literal. */
final class SocksDestination {

    private SocksDestination() {
    }

    static InetSocketAddress inet(SocketAddress destination, String prefix) {
        if (!(destination instanceof InetSocketAddress inet)) {
            throw new IllegalArgumentException(prefix + ": a SOCKS destination must be an InetSocketAddress, not "
                    + destination);
        }
        return inet;
    }

    /** The host to send: the unresolved name, or the literal of the resolved address without its scope. */
    static String host(InetSocketAddress inet) {
        if (inet.isUnresolved()) {
            return inet.getHostString();
        }
        String literal = inet.getAddress().getHostAddress();
        int scope = literal.indexOf('%');
        return scope < 0 ? literal : literal.substring(0, scope);
    }
}
