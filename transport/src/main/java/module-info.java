/** Channels, event loops with pluggable I/O handlers, the NIO and in-VM local transports, channel groups. */
module io.rill.transport {
    requires transitive io.rill.common;
    requires transitive io.rill.buffer;
    // JFR events io.rill.ConnectionAccepted and io.rill.ConnectionClosed.
    requires jdk.jfr;

    exports io.rill.channel;
    exports io.rill.channel.nio;
    exports io.rill.channel.socket;
    exports io.rill.bootstrap;
    exports io.rill.channel.embedded;
    exports io.rill.channel.local;
    exports io.rill.channel.group;
}
