/**
 * Client-side proxy handlers: SOCKS4/4a, SOCKS5 and HTTP CONNECT. See {@link io.rill.handler.proxy}.
 */
module io.rill.handler.proxy {
    requires transitive io.rill.codec.socks;
    requires transitive io.rill.codec.http;

    exports io.rill.handler.proxy;
}
