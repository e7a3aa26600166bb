package io.rill.handler.ssl;

import io.rill.util.InternalLogger;

/**
 * Which TLS implementation an {@link SslContext} uses.
 *
 * <p>{@link #JDK} is the {@code javax.net.ssl.SSLEngine} of the running JDK and always works.
 * {@link #OPENSSL} is BoringSSL through netty-tcnative, available when
 * netty-tcnative-boringssl-static is on the class or module path and its JNI library loads;
 * otherwise {@link #isAvailable} answers false with the reason and {@link SslContextBuilder#build()}
 * refuses it.
 *
 * <p>OPENSSL's JNI library is loaded by {@code io.rill.common} (its {@code NativeLibraryLoader}),
 * so on JDK 24 and later, which warn about native access, run with
 * {@code --enable-native-access=ALL-UNNAMED} on the class path or
 * {@code --enable-native-access=io.rill.common} on the module path. On the module path
 * {@code io.rill.handler} requires tcnative's classes only statically, so put them in the module
 * graph: {@code requires io.netty.tcnative.classes.openssl;} in the application's
 * {@code module-info.java}, or {@code --add-modules io.netty.tcnative.classes.openssl}. The jar
 * with the library (netty-tcnative-boringssl-static with its platform classifier) needs neither:
 * it is read from the module path unresolved. {@link #unavailabilityCause()} names what is missing.
 */
public enum SslProvider {
    /** The {@code javax.net.ssl.SSLEngine} of the running JDK; always available. */
    JDK,
    /**
     * BoringSSL through netty-tcnative's JNI API; available when netty-tcnative-boringssl-static is
     * present and its native library loads.
     */
    OPENSSL;

    /**
     * Whether this provider can build contexts in this JVM.
     *
     * @return true for JDK; for OPENSSL, whether its library loaded
     */
    public boolean isAvailable() {
        return this == JDK || OpenSsl.isAvailable();
    }

    /**
     * Why {@link #isAvailable()} is false, or null when it is true.
     *
     * @return a one-line reason naming the exception, or null
     */
    public String unavailabilityCause() {
        if (isAvailable()) {
            return null;
        }
        Throwable cause = OpenSsl.unavailabilityCause();
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    /**
     * How many native objects (BoringSSL contexts and engines) this provider holds right now: 0
     * for JDK. For leak checks: once every {@link SslContext} is closed and every channel that
     * used one is closed, this is back to what it was.
     *
     * @return the count of live native objects
     */
    public int liveNativeObjects() {
        return this == JDK ? 0 : OpenSsl.CONTEXTS_ALIVE.get() + OpenSsl.ENGINES_ALIVE.get();
    }

    /**
     * The provider used when none is chosen: OPENSSL when available, JDK otherwise (logged once, with why).
     *
     * @return OPENSSL or JDK, the same for the life of the JVM
     */
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
