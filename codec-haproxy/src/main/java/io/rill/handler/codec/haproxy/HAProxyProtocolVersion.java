package io.rill.handler.codec.haproxy;

/** The two versions of the PROXY protocol. */
public enum HAProxyProtocolVersion {
    /** The human-readable line: {@code PROXY TCP4 192.0.2.1 198.51.100.1 56324 443\r\n}. */
    V1,
    /** The binary header with its 12-byte signature, optional TLVs. */
    V2
}
