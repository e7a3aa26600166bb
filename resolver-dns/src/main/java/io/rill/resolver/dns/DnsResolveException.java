package io.rill.resolver.dns;

import java.net.UnknownHostException;

/**
 * A name {@link DnsNameResolver} could not resolve. It is an {@link UnknownHostException}, as the
 * JDK's lookup throws, and each reason has its own subclass.
 */
public class DnsResolveException extends UnknownHostException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message naming the host and the reason.
     *
     * @param message the message
     */
    public DnsResolveException(String message) {
        super(message);
    }

    /**
     * An exception with a message and a cause.
     *
     * @param message the message
     * @param cause the cause
     */
    public DnsResolveException(String message, Throwable cause) {
        super(message);
        initCause(cause);
    }
}
