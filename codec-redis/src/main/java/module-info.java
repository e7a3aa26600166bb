/**
 * The Redis serialization protocol, RESP2 and RESP3: message types, an encoder, a bounded
 * streaming decoder (with inline commands for servers) and an aggregator that builds whole
 * replies and commands; see {@link io.rill.handler.codec.redis}.
 */
module io.rill.codec.redis {
    requires transitive io.rill.codec;

    exports io.rill.handler.codec.redis;
}
