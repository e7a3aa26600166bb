/**
 * The non-blocking DNS resolver ({@link io.rill.resolver.dns.DnsNameResolver}) and the DNS codec
 * it speaks over UDP and TCP ({@code io.rill.handler.codec.dns}).
 */
module io.rill.resolver.dns {
    requires transitive io.rill.resolver;
    requires transitive io.rill.codec;

    exports io.rill.resolver.dns;
    exports io.rill.handler.codec.dns;
}
