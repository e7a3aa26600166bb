package io.rill.handler.ssl;

/** Whether a TLS server asks its clients for a certificate (mutual TLS). */
public enum ClientAuth {
    /** No certificate is requested. */
    NONE,
    /** A certificate is requested; a client without one is still accepted, a bad one is not. */
    OPTIONAL,
    /** A valid client certificate is required; the handshake fails without one. */
    REQUIRE
}
