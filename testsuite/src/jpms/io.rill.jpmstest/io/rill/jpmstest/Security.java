package io.rill.jpmstest;

import io.rill.handler.ssl.SslProvider;

/** Plaintext, or TLS through one of the two providers. */
enum Security {
    PLAINTEXT(null), TLS_JDK(SslProvider.JDK), TLS_OPENSSL(SslProvider.OPENSSL);

    /** Null for plaintext. */
    final SslProvider provider;

    Security(SslProvider provider) {
        this.provider = provider;
    }
}
