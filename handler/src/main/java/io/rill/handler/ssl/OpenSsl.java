package io.rill.handler.ssl;

import java.util.concurrent.atomic.AtomicInteger;

import io.netty.internal.tcnative.Library;
import io.netty.internal.tcnative.SSL;
import io.rill.util.NativeLibraryLoader;
import io.rill.util.PlatformInfo;

/**
 * Whether BoringSSL (netty-tcnative-boringssl-static, an optional dependency) can be used, and
 * why not. The JNI library is taken from that jar's {@code META-INF/native/} by rill-common's
 * {@link NativeLibraryLoader}, then tcnative is told it is already loaded ("provided"). Nothing
 * here touches tcnative's classes before they are known to be present.
 *
 * <p>Also counts the native objects alive ({@code SSL_CTX} and {@code SSL}), so tests can check
 * that every one was freed.
 */
final class OpenSsl {

    static final AtomicInteger CONTEXTS_ALIVE = new AtomicInteger();
    static final AtomicInteger ENGINES_ALIVE = new AtomicInteger();

    private static final Throwable UNAVAILABILITY_CAUSE = load();

    private OpenSsl() {
    }

    static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    private static Throwable load() {
        try {
            Class.forName("io.netty.internal.tcnative.SSL", false, OpenSsl.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return new UnsupportedOperationException(
                    "netty-tcnative-boringssl-static is not on the class or module path", e);
        }
        try {
            String name = "netty_tcnative_" + PlatformInfo.classifier().replace('-', '_');
            NativeLibraryLoader.load(name, OpenSsl.class.getClassLoader());
            Library.initialize("provided", null);
            SSL.versionString(); // proves the natives are bound
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
