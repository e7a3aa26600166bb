package io.rill.channel.epoll;

import io.rill.util.NativeLibraryLoader;

/**
 * Whether the epoll transport can be used here, and if not, why: not Linux, a CPU architecture
 * Rill has no library name for, no library for this CPU in the jars, or a library that failed to
 * load (built against glibc on a musl system, a noexec temp directory, ...). The cause's message
 * names the OS, the CPU, the C library and the resource looked for, and the loader's
 * {@link UnsatisfiedLinkError} lists every attempt. Checked once, when this class initializes:
 * <pre>{@code
 * IoHandlerFactory io = Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
 * }</pre>
 *
 * <p>On JDK 24 and later, loading a JNI library warns unless native access is enabled: run with
 * {@code --enable-native-access=ALL-UNNAMED} (class path), {@code =io.rill.transport.epoll}
 * (module path), or {@code Enable-Native-Access: ALL-UNNAMED} in an executable jar's manifest.
 */
public final class Epoll {

    private static final Throwable UNAVAILABILITY_CAUSE = probe();

    private Epoll() {
    }

    private static Throwable probe() {
        try {
            Throwable cause = EpollPlatform.current().load(Epoll.class.getClassLoader(), new LoadHere());
            if (cause != null) {
                return cause;
            }
            int epfd = Native.epollCreate(); // proves the registered methods work, not just the load
            if (epfd < 0) {
                return Errors.newException("epoll_create1", -epfd);
            }
            Native.close(epfd);
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /**
     * Loads from this module, so the library binds to the class loader that has {@link Native}
     * (JNI_OnLoad looks it up there) even when Rill's modules do not share one.
     */
    private static final class LoadHere implements NativeLibraryLoader.Linker {
        @Override
        public void load(String absolutePath) {
            System.load(absolutePath);
        }

        @Override
        public void loadLibrary(String name) {
            System.loadLibrary(name);
        }
    }

    /** {@return true if the library loaded and an epoll instance could be created} */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /** Throws an {@link UnsatisfiedLinkError} caused by {@link #unavailabilityCause()} unless available. */
    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("the epoll transport is not available: "
                    + UNAVAILABILITY_CAUSE.getMessage());
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /** {@return why the transport is not available, or null if it is} */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }
}
