package io.rill.resolver.dns;

/**
 * The name does not exist (NXDOMAIN), or has no address of the types asked for (NOERROR with no
 * data, RFC 2308 §2.2), under every name the search list made of it.
 */
public final class DnsNameNotFoundException extends DnsResolveException {

    private static final long serialVersionUID = 1L;

    DnsNameNotFoundException(String message) {
        super(message);
    }
}
