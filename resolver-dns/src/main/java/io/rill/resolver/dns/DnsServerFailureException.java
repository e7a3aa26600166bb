package io.rill.resolver.dns;

import io.rill.handler.codec.dns.DnsMessage;

/** Every server answered with an error RCODE (SERVFAIL, REFUSED, FORMERR, NOTIMP, ...). */
public final class DnsServerFailureException extends DnsResolveException {

    private static final long serialVersionUID = 1L;

    /** The RCODE of the last answer. */
    private final int rcode;

    DnsServerFailureException(String message, int rcode) {
        super(message);
        this.rcode = rcode;
    }

    /** {@return the RCODE of the last answer, e.g. {@link DnsMessage#SERVFAIL}} */
    public int rcode() {
        return rcode;
    }
}
