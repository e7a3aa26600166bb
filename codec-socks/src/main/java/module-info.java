/**
 * SOCKS codecs: SOCKS4 and 4a, SOCKS5 (RFC 1928) with username/password authentication
 * (RFC 1929). Messages, one encoder for all of them, and one decoder per message for each side of
 * the handshake; see {@link io.rill.handler.codec.socks}.
 */
module io.rill.codec.socks {
    requires transitive io.rill.codec;

    exports io.rill.handler.codec.socks;
}
