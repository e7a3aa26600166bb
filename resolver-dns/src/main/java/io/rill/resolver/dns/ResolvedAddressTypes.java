package io.rill.resolver.dns;

/** Which address records {@link DnsNameResolver} asks for, and which family comes first. */
public enum ResolvedAddressTypes {
    /** A records only. */
    IPV4_ONLY,
    /** AAAA records only. */
    IPV6_ONLY,
    /** Both, asked at once; IPv4 addresses first. */
    IPV4_PREFERRED,
    /** Both, asked at once; IPv6 addresses first. */
    IPV6_PREFERRED
}
