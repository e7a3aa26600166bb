package io.rill.handler.codec.haproxy;

/** The command of a PROXY header. Version 1 headers are always {@link #PROXY}. */
public enum HAProxyCommand {
    /** The proxy's own connection (a health check): the addresses are those of the TCP connection. */
    LOCAL,
    /** A relayed connection: the header carries the client's addresses. */
    PROXY
}
