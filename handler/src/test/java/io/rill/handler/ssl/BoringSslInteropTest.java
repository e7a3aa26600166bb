package io.rill.handler.ssl;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** Every test of {@link OpenSslInteropTest} (real peers over loopback) with Rill on the OPENSSL provider. */
class BoringSslInteropTest extends OpenSslInteropTest {

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
