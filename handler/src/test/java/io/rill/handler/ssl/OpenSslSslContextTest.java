package io.rill.handler.ssl;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** Every test of {@link SslContextTest} with the OPENSSL provider (BoringSSL through netty-tcnative). */
class OpenSslSslContextTest extends SslContextTest {

    @BeforeAll
    static void openSslAvailable() {
        OpenSslProvider.assumeAvailable();
    }

    @Override
    SslProvider provider() {
        return SslProvider.OPENSSL;
    }

    @AfterEach
    void nativeEnginesFreed() {
        TlsFixtures.provider = SslProvider.JDK;
        OpenSslProvider.assertNoEngineAlive();
    }
}
