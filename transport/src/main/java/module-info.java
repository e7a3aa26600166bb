/** Channels, event loops with pluggable I/O handlers, and the NIO transport. */
module io.rill.transport {
    requires transitive io.rill.common;

    exports io.rill.channel;
    exports io.rill.channel.nio;
}
