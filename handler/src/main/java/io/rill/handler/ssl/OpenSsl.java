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
 * here touches tcnative's classes before they are known to be present. When they are missing,
 * the cause says what to add in the layout at hand (class path, module path, or a module on the
 * module path that nothing requires).
 *
 * <p>Also counts the native objects alive ({@code SSL_CTX} and {@code SSL}), so tests can check
 * that every one was freed.
 */
final class OpenSsl {

    static final AtomicInteger CONTEXTS_ALIVE = new AtomicInteger();
    static final AtomicInteger ENGINES_ALIVE = new AtomicInteger();

    private static final Throwable UNAVAILABILITY_CAUSE = load();

    /**
     * The module name of netty-tcnative-classes. io.rill.handler {@code requires static} it, and
     * the module system resolves such a module only when something else requires it or
     * {@code --add-modules} names it. The jar with the JNI library needs neither:
     * {@link NativeLibraryLoader} reads it from the module path unresolved.
     */
    static final String CLASSES_MODULE = "io.netty.tcnative.classes.openssl";

    private OpenSsl() {
    }

    /** Why tcnative's classes cannot be found, in the terms of the layout this JVM runs. */
    private static String missingClasses() {
        if (NativeLibraryLoader.isUnresolvedModule(CLASSES_MODULE)) {
            return "netty-tcnative-classes is on the module path, but nothing requires " + CLASSES_MODULE
                    + " (io.rill.handler's dependency on it is optional), so it was not resolved: add 'requires "
                    + CLASSES_MODULE + ";' to your module-info.java, or run with --add-modules " + CLASSES_MODULE;
        }
        if (OpenSsl.class.getModule().isNamed()) {
            return "netty-tcnative-classes (module " + CLASSES_MODULE + ") is not on the module path: add"
                    + " io.netty:netty-tcnative-boringssl-static with its platform classifier, which brings it";
        }
        return "netty-tcnative-classes is not on the class path: add io.netty:netty-tcnative-boringssl-static"
                + " with its platform classifier, which brings it";
    }

    static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    private static Throwable load() {
        Class<?> ssl;
        try {
            ssl = Class.forName("io.netty.internal.tcnative.SSL", false, OpenSsl.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return new UnsupportedOperationException(missingClasses(), e);
        }
        Module rill = OpenSsl.class.getModule();
        if (!rill.canRead(ssl.getModule())) {
            return new UnsupportedOperationException("netty-tcnative-classes is on the class path, but " + rill.getName()
                    + " is on the module path and a named module cannot read the class path: put both tcnative jars"
                    + " on the module path, and add " + CLASSES_MODULE + " to the module graph"
                    + " (requires " + CLASSES_MODULE + " in your module, or --add-modules " + CLASSES_MODULE + ")");
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
