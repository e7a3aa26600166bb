/**
 * The memcached binary protocol, for clients and servers. See
 * {@link io.rill.handler.codec.memcache.binary}.
 */
module io.rill.codec.memcache {
    requires transitive io.rill.codec;

    exports io.rill.handler.codec.memcache.binary;
}
