/** Channels, event loops with pluggable I/O handlers, the NIO and in-VM local transports, channel groups. */
@SuppressWarnings("module") // the transport modules that io.rill.channel.internal is exported to are built after this one
module io.rill.transport {
    requires transitive io.rill.common;
    requires transitive io.rill.buffer;
    requires transitive io.rill.resolver;
    // JFR events io.rill.ConnectionAccepted and io.rill.ConnectionClosed.
    requires jdk.jfr;

    exports io.rill.channel;
    exports io.rill.channel.nio;
    exports io.rill.channel.socket;
    exports io.rill.bootstrap;
    exports io.rill.channel.embedded;
    exports io.rill.channel.local;
    exports io.rill.channel.group;
    exports io.rill.channel.pool;
    // The read, accept and half-closure machinery the transports share; not API, so exported only
    // to Rill's own transport modules, and left out of the published javadoc.
    exports io.rill.channel.internal to io.rill.transport.epoll;
}
