/**
 * A program run on the module path only (JpmsModulePathTest): HTTP round trips over NIO and epoll,
 * in plaintext and over TLS with both providers, and WebSocket over HTTP/2 over both. It compiles against, and runs with, nothing but
 * the modules' exports: no --add-opens, no --add-exports.
 */
module io.rill.jpmstest {
    requires io.rill.codec.http;
    requires io.rill.codec.http2;
    requires io.rill.transport.epoll;
}
