/**
 * A program run on the module path only (JpmsModulePathTest): HTTP round trips over NIO and epoll,
 * in plaintext and over TLS with both providers, WebSocket over HTTP/2, and HTTP behind a PROXY
 * header through SOCKS5 plus a DNS query through the DNS codec, over both. It compiles against, and runs with, nothing but
 * the modules' exports: no --add-opens, no --add-exports.
 */
module io.rill.jpmstest {
    requires io.rill.codec.http;
    requires io.rill.codec.http2;
    requires io.rill.transport.epoll;
    requires io.rill.handler.proxy;
    requires io.rill.codec.haproxy;
    requires io.rill.resolver.dns;
}
