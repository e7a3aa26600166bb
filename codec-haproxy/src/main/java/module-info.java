/**
 * The HAProxy PROXY protocol, versions 1 and 2: the header a load balancer puts before a connection's
 * bytes to tell the server who the client is. See {@link io.rill.handler.codec.haproxy}.
 */
module io.rill.codec.haproxy {
    requires transitive io.rill.codec;

    exports io.rill.handler.codec.haproxy;
}
