package io.rill.handler.ssl;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** Every test of {@link SniHandlerTest} with the OPENSSL provider (BoringSSL through netty-tcnative). */
class OpenSslSniHandlerTest extends SniHandlerTest {

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
