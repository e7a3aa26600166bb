package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.util.NativeLibraryLoader;

/**
 * What {@link Epoll#unavailabilityCause()} says on platforms this build does not serve: each
 * message names the OS, the CPU, the C library and, once a load was tried, the resource path.
 * The platforms are described, not run on: a linker that records calls stands in for the JVM.
 */
class EpollUnavailabilityTest {

    /** Records what the loader asked for and refuses everything, as a JVM without the library would. */
    private static final class RefusingLinker implements NativeLibraryLoader.Linker {
        final List<String> calls = new ArrayList<>();

        @Override
        public void load(String absolutePath) {
            calls.add("load " + absolutePath);
            throw new UnsatisfiedLinkError(absolutePath + ": Error relocating: __memcpy_chk: symbol not found");
        }

        @Override
        public void loadLibrary(String name) {
            calls.add("loadLibrary " + name);
            throw new UnsatisfiedLinkError("no " + name + " in java.library.path");
        }
    }

    private static String messageOf(Throwable cause) {
        assertNotNull(cause, "expected a cause");
        return cause.getMessage();
    }

    @Test
    void anotherOsIsNamedWithoutTryingToLoad() {
        RefusingLinker linker = new RefusingLinker();
        EpollPlatform mac = new EpollPlatform("osx", "aarch_64", "Mac OS X", "aarch64", "unknown");

        Throwable cause = mac.load(getClass().getClassLoader(), linker);

        assertInstanceOf(UnsupportedOperationException.class, cause);
        String message = messageOf(cause);
        assertTrue(message.contains("needs Linux"), message);
        assertTrue(message.contains("Mac OS X"), message);
        assertTrue(message.contains("aarch_64"), message);
        assertEquals(List.of(), linker.calls);
    }

    @Test
    void aCpuWithoutALibraryNameIsNamedAsTheJdkReportsIt() {
        RefusingLinker linker = new RefusingLinker();
        EpollPlatform sparc = new EpollPlatform("linux", "unknown", "Linux", "sparcv9", "glibc");

        Throwable cause = sparc.load(getClass().getClassLoader(), linker);

        assertInstanceOf(UnsupportedOperationException.class, cause);
        String message = messageOf(cause);
        assertTrue(message.contains("'sparcv9'"), message);
        assertTrue(message.contains("Linux, C library glibc"), message);
        assertEquals(List.of(), linker.calls);
    }

    @Test
    void aLibraryMissingFromTheJarNamesTheResourceAndTheClassifierJar() {
        RefusingLinker linker = new RefusingLinker();
        // This build bundles only the library of the CPU it ran on, never riscv64's.
        EpollPlatform riscv = new EpollPlatform("linux", "riscv64", "Linux", "riscv64", "glibc");

        Throwable cause = riscv.load(getClass().getClassLoader(), linker);

        assertInstanceOf(UnsatisfiedLinkError.class, cause);
        String message = messageOf(cause);
        assertTrue(message.contains("META-INF/native/librill_transport_native_epoll_riscv64.so"), message);
        assertTrue(message.contains("linux-riscv64"), message);
        assertTrue(message.contains("os.arch riscv64, C library glibc"), message);
        assertTrue(message.contains("classifier linux-riscv64"), message);
        // the loader's own account of its attempts follows, and its error is the cause
        assertTrue(message.contains("not found by class loader"), message);
        assertInstanceOf(UnsatisfiedLinkError.class, cause.getCause());
        assertEquals(List.of("loadLibrary rill_transport_native_epoll_riscv64"), linker.calls);
    }

    @Test
    void aBundledLibraryThatMuslRefusesSaysItWasBuiltForGlibc() {
        RefusingLinker linker = new RefusingLinker();
        // The library this build compiled is in target/classes; pretend the JVM runs on Alpine.
        EpollPlatform here = EpollPlatform.current();
        EpollPlatform alpine = new EpollPlatform("linux", here.arch(), "Linux", here.osArch(), "musl");
        assumeTrue(
                getClass().getClassLoader().getResource(alpine.resourcePath()) != null,
                "this build bundles no library for " + here.arch());

        Throwable cause = alpine.load(getClass().getClassLoader(), linker);

        assertInstanceOf(UnsatisfiedLinkError.class, cause);
        String message = messageOf(cause);
        assertTrue(message.contains("musl"), message);
        assertTrue(message.contains("built against glibc"), message);
        assertTrue(message.contains(alpine.resourcePath()), message);
        assertTrue(message.contains("__memcpy_chk"), message);
        assertEquals(2, linker.calls.size(), linker.calls::toString);
    }

    @Test
    void thisPlatformIsDescribedAsTheJdkSeesIt() {
        EpollPlatform here = EpollPlatform.current();
        assertEquals(System.getProperty("os.arch"), here.osArch());
        if (here.os().equals("linux")) {
            assertTrue(List.of("glibc", "musl", "unknown").contains(here.libc()), here.libc());
            assertTrue(here.resourcePath().startsWith("META-INF/native/librill_transport_native_epoll_"),
                    here.resourcePath());
        }
    }
}
