package io.rill.channel.epoll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.rill.util.NativeLibraryLoader;
import io.rill.util.PlatformInfo;

/**
 * The platform facts that decide whether the epoll library can load, and the one place that turns
 * a refusal into a message naming them: the OS, the CPU (as the JDK reports it and as Rill names
 * it), the C library, and the resource the loader looked for. A record so that tests can ask
 * about a platform they do not run on.
 *
 * @param os     {@link PlatformInfo#os()}'s spelling: {@code linux}, {@code osx}, ...
 * @param arch   {@link PlatformInfo#arch()}'s spelling: {@code x86_64}, {@code aarch_64}, ...
 *               or {@code unknown}
 * @param osName the JDK's {@code os.name}
 * @param osArch the JDK's {@code os.arch}
 * @param libc   {@code glibc}, {@code musl} or {@code unknown}
 */
record EpollPlatform(String os, String arch, String osName, String osArch, String libc) {

    static final String LIBRARY_PREFIX = "rill_transport_native_epoll_";

    /** The platform this JVM runs on. */
    static EpollPlatform current() {
        return new EpollPlatform(PlatformInfo.os(), PlatformInfo.arch(), System.getProperty("os.name"),
                System.getProperty("os.arch"), PlatformInfo.isLinux() ? detectLibc() : "unknown");
    }

    /** The library name for this CPU, without {@code lib} and {@code .so}. */
    String libraryName() {
        return LIBRARY_PREFIX + arch;
    }

    /** Where in a jar the loader looks for the library. */
    String resourcePath() {
        return "META-INF/native/" + System.mapLibraryName(libraryName());
    }

    /**
     * Loads the library through {@code linker}, looking in {@code loader}'s jars first; returns
     * why it cannot be used here, or null once it loaded. Only the OS and CPU are checked before
     * trying: a library built against glibc may still load on musl, so the C library is only
     * named when the load failed.
     */
    Throwable load(ClassLoader loader, NativeLibraryLoader.Linker linker) {
        if (!os.equals("linux")) {
            return new UnsupportedOperationException("epoll needs Linux; this is " + osName + " (" + os + ", "
                    + arch + "): use the NIO transport");
        }
        if (arch.equals("unknown")) {
            return new UnsupportedOperationException("no epoll library for the CPU architecture '" + osArch
                    + "' (Linux, C library " + libc + "): Rill does not know how to name a library for it; "
                    + "use the NIO transport");
        }
        boolean bundled = (loader == null ? ClassLoader.getSystemResource(resourcePath())
                : loader.getResource(resourcePath())) != null;
        try {
            NativeLibraryLoader.load(libraryName(), loader, linker);
            return null;
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot load the epoll library for linux-"
                    + arch + " (os.arch " + osArch + ", C library " + libc + ") from " + resourcePath()
                    + " or java.library.path: " + hint(bundled) + "\n" + e.getMessage());
            error.initCause(e);
            return error;
        }
    }

    /** The likely reason, first in the message, since the loader's attempts that follow are long. */
    private String hint(boolean bundled) {
        if (!bundled) {
            return "no jar on the class path holds it (this platform's rill-transport-native-epoll jar, or the "
                    + "one with classifier linux-" + classifierArch() + ", carries it)";
        }
        if (libc.equals("musl")) {
            return "the bundled library was built against glibc and this system's C library is musl "
                    + "(Alpine?); build Rill on this system or use the NIO transport";
        }
        return "the bundled library did not load";
    }

    /** The Maven classifier spells the CPU as the kernel does ({@code uname -m}). */
    private String classifierArch() {
        return arch.equals("aarch_64") ? "aarch64" : arch;
    }

    /**
     * The C library mapped into this process: the dynamic loader of musl is {@code ld-musl-*},
     * glibc's C library is {@code libc.so.6}. Reading our own mappings answers for this process,
     * not for whatever else is installed.
     */
    private static String detectLibc() {
        try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
            String found = "unknown";
            for (String line : (Iterable<String>) maps::iterator) {
                if (line.contains("ld-musl") || line.contains("libc.musl")) {
                    return "musl";
                }
                if (line.contains("/libc.so.6") || line.contains("/libc-2.")) {
                    found = "glibc";
                }
            }
            return found;
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
