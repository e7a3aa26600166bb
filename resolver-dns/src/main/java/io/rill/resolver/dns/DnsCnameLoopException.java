package io.rill.resolver.dns;

/**
 * A CNAME chain came back to a name already in it, or was longer than the builder's
 * {@code maxCnameChain} (8 by default).
 */
public final class DnsCnameLoopException extends DnsResolveException {

    private static final long serialVersionUID = 1L;

    DnsCnameLoopException(String message) {
        super(message);
    }
}
