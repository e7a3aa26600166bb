/** Channels, event loops with pluggable I/O handlers, and the NIO transport. */
module io.rill.transport {
    requires transitive io.rill.common;
    requires transitive io.rill.buffer;

    exports io.rill.channel;
    exports io.rill.channel.nio;
    exports io.rill.channel.socket;
    exports io.rill.bootstrap;
    exports io.rill.channel.embedded;
}
