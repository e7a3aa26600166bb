package io.rill.handler.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Assumptions;

/** For the test classes that rerun a JDK test class with the OPENSSL provider. */
final class OpenSslProvider {

    private OpenSslProvider() {
    }

    /** Skips the class when BoringSSL cannot load here (the jar is an optional dependency). */
    static void assumeAvailable() {
        Assumptions.assumeTrue(SslProvider.OPENSSL.isAvailable(), () -> String.valueOf(SslProvider.OPENSSL.unavailabilityCause()));
    }

    /** Every engine a test made was freed with its channel. */
    static void assertNoEngineAlive() {
        System.gc(); // engines dropped without a handler are freed by their Cleaner, not counted here as live
        assertEquals(0, OpenSsl.ENGINES_ALIVE.get(), "native SSL objects still alive");
    }
}
