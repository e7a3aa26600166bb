package io.rill.handler.ssl;

import javax.net.ssl.SSLException;

import io.rill.buffer.ByteBufAllocator;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * Certificates and contexts shared by the TLS tests (generated once per JVM: key generation is
 * slow).
 *
 * <p>Case IDs such as T-07 in this file are those of docs/security-cases.md.
 */
final class TlsFixtures {

    /** localhost, 127.0.0.1 and ::1. */
    static final SelfSignedCertificate LOCALHOST = new SelfSignedCertificate();
    /** A certificate for another host only: "other.test" (T-08). */
    static final SelfSignedCertificate OTHER_HOST = SelfSignedCertificate.builder()
            .dnsNames("other.test").ipAddresses().build();
    /** A client identity for mutual TLS. */
    static final SelfSignedCertificate CLIENT = SelfSignedCertificate.builder()
            .dnsNames("client.test").ipAddresses().build();

    /** The provider the builders below use; a test class for another provider sets it before each test. */
    static volatile SslProvider provider = SslProvider.JDK;

    private TlsFixtures() {
    }

    static SslContextBuilder serverBuilder(SelfSignedCertificate cert) {
        return SslContextBuilder.forServer(cert.key(), cert.certificate()).sslProvider(provider);
    }

    static SslContextBuilder clientTrusting(SelfSignedCertificate cert) {
        return SslContextBuilder.forClient().trustManager(cert.certificate()).sslProvider(provider);
    }

    static SslContext build(SslContextBuilder builder) {
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new AssertionError(e);
        }
    }

    /** A server and a client (verifying "localhost") peer speaking {@code protocol}. */
    static TlsPeer[] pair(String protocol) {
        SslContext server = build(serverBuilder(LOCALHOST).protocols(protocol));
        SslContext client = build(clientTrusting(LOCALHOST).protocols(protocol));
        return new TlsPeer[] {
            new TlsPeer(server.newHandler(ByteBufAllocator.DEFAULT)),
            new TlsPeer(client.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443))
        };
    }
}
