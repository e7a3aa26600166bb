package io.rill.resolver.dns;

import io.rill.handler.codec.dns.DnsDecoderException;

/**
 * The only answers that came from the server did not decode; the cause is the
 * {@link DnsDecoderException} of the last one. Malformed datagrams are otherwise ignored, so a
 * spoofer cannot cut a query short by sending garbage first.
 */
public final class DnsMalformedAnswerException extends DnsResolveException {

    private static final long serialVersionUID = 1L;

    DnsMalformedAnswerException(String message, DnsDecoderException cause) {
        super(message, cause);
    }
}
