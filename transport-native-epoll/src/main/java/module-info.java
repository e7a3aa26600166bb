/**
 * The native epoll transport for Linux: an edge-triggered {@link io.rill.channel.epoll.EpollIoHandler},
 * TCP, Unix-domain and UDP channels with Linux socket options, over a JNI library this module's
 * build compiles and packages. Check {@link io.rill.channel.epoll.Epoll#isAvailable()} before use.
 */
module io.rill.transport.epoll {
    requires transitive io.rill.transport;

    exports io.rill.channel.epoll;
}
