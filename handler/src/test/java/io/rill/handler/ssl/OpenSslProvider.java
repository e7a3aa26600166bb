package io.rill.handler.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * Mixed into a subclass of a JDK test class to rerun it with the OPENSSL provider: skips the
 * class when BoringSSL cannot load here (the jar is an optional dependency), and checks after
 * each test that every native engine it made was freed.
 */
interface OpenSslProvider {

    @BeforeAll
    static void assumeAvailable() {
        Assumptions.assumeTrue(SslProvider.OPENSSL.isAvailable(),
                () -> String.valueOf(SslProvider.OPENSSL.unavailabilityCause()));
    }

    @AfterEach
    default void everyNativeEngineWasFreed() {
        TlsFixtures.provider = SslProvider.JDK;
        assertEquals(0, OpenSsl.ENGINES_ALIVE.get(), "native SSL objects still alive");
    }
}
