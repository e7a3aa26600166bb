/**
 * The memcached binary and text protocols, for clients and servers. See
 * {@link io.rill.handler.codec.memcache.binary} and {@link io.rill.handler.codec.memcache.text}.
 */
module io.rill.codec.memcache {
    requires transitive io.rill.codec;

    exports io.rill.handler.codec.memcache.binary;
    exports io.rill.handler.codec.memcache.text;
}
