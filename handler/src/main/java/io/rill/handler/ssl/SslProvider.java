package io.rill.handler.ssl;

import io.rill.util.InternalLogger;

/**
 * Which TLS implementation an {@link SslContext} uses.
 *
 * <p>{@link #JDK} is the {@code javax.net.ssl.SSLEngine} of the running JDK and always works.
 * {@link #OPENSSL} (BoringSSL through netty-tcnative) is declared so configurations can name it,
 * but this build has no OpenSSL engine yet: {@link #isAvailable} answers false with the reason
 * and {@link SslContextBuilder#build()} refuses it.
 */
public enum SslProvider {
    JDK,
    OPENSSL;

    /** Whether this provider can build contexts in this JVM. */
    public boolean isAvailable() {
        return this == JDK || OpenSsl.isAvailable();
    }

    /** Why {@link #isAvailable()} is false, or null when it is true. */
    public String unavailabilityCause() {
        if (isAvailable()) {
            return null;
        }
        Throwable cause = OpenSsl.unavailabilityCause();
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    /** The provider used when none is chosen: OPENSSL when available, JDK otherwise (logged once, with why). */
    public static SslProvider defaultProvider() {
        return DefaultChoice.PROVIDER;
    }

    /** Decided and logged once, on first use. */
    private static final class DefaultChoice {
        static final SslProvider PROVIDER;

        static {
            PROVIDER = OPENSSL.isAvailable() ? OPENSSL : JDK;
            if (PROVIDER == JDK) {
                InternalLogger.get(SslProvider.class).debug("default SslProvider: JDK, because {}",
                        OPENSSL.unavailabilityCause());
            }
        }
    }
}
