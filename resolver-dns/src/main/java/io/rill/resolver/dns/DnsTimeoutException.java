package io.rill.resolver.dns;

/**
 * No acceptable answer arrived within the query timeout, on any attempt to any server; the
 * message names the timeout and the number of attempts (resolv.conf's {@code timeout} and
 * {@code attempts}, or the builder's {@code queryTimeout} and {@code attempts}).
 */
public final class DnsTimeoutException extends DnsResolveException {

    private static final long serialVersionUID = 1L;

    DnsTimeoutException(String message) {
        super(message);
    }
}
