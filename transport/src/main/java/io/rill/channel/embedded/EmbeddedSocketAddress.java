package io.rill.channel.embedded;

import java.net.SocketAddress;

/** The local and remote address of every {@link EmbeddedChannel}. */
final class EmbeddedSocketAddress extends SocketAddress {

    private static final long serialVersionUID = 1L;

    static final EmbeddedSocketAddress LOCAL = new EmbeddedSocketAddress("embedded-local");
    static final EmbeddedSocketAddress REMOTE = new EmbeddedSocketAddress("embedded-remote");

    private final String name;

    private EmbeddedSocketAddress(String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
