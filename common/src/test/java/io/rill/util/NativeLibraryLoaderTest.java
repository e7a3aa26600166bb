package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLibraryLoaderTest {

    @TempDir
    Path temp;

    /** Records loads and lets them succeed or fail like System.load would. */
    private static final class RecordingLinker implements NativeLibraryLoader.Linker {
        final List<String> loaded = new ArrayList<>();
        final boolean loadSucceeds;

        RecordingLinker(boolean loadSucceeds) {
            this.loadSucceeds = loadSucceeds;
        }

        @Override
        public void load(String absolutePath) {
            assertTrue(Files.isRegularFile(Paths.get(absolutePath)), "extracted file exists while loading");
            if (!loadSucceeds) {
                throw new UnsatisfiedLinkError(absolutePath + ": invalid ELF header");
            }
            loaded.add(absolutePath);
        }

        @Override
        public void loadLibrary(String name) {
            throw new UnsatisfiedLinkError("no " + name + " in java.library.path");
        }
    }

    @Test
    void explainsAMissingResourceAndTheLibraryPathFallback() {
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class,
                () -> NativeLibraryLoader.load("rill_test_absent", getClass().getClassLoader()));
        String message = e.getMessage();
        assertTrue(message.startsWith("could not load native library 'rill_test_absent':"), message);
        assertTrue(message.contains("1. resource META-INF/native/" + System.mapLibraryName("rill_test_absent")
                + " not found"), message);
        assertTrue(message.contains("2. System.loadLibrary(\"rill_test_absent\") failed"), message);
        assertEquals(1, e.getSuppressed().length);
    }

    @Test
    void reportsAResourceThatIsNotALibraryAndDeletesTheExtractedFile() throws Exception {
        Path workDir = Files.createDirectory(temp.resolve("work"));
        try (URLClassLoader loader = loaderWith("rill_test_bogus", "this is not a shared library")) {
            UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeLibraryLoader.load(
                    "rill_test_bogus", loader, new RecordingLinker(false), workDir, true));
            String message = e.getMessage();
            assertTrue(message.contains("1. loading " + workDir), message);
            assertTrue(message.contains("invalid ELF header"), message);
            assertTrue(message.contains("2. System.loadLibrary(\"rill_test_bogus\") failed"), message);
            assertEquals(2, e.getSuppressed().length);
        }
        assertEquals(List.of(), list(workDir));
    }

    @Test
    void reallyLoadsAValidLibraryThroughTheSystemAndDeletesIt() throws Exception {
        // A tiny JDK library without JNI_OnLoad stands in for a Rill one.
        Path jdkLibrary = Paths.get(System.getProperty("java.home"), "lib", System.mapLibraryName("syslookup"));
        assumeTrue(Files.isRegularFile(jdkLibrary), "no " + jdkLibrary + " in this JDK");
        Path workDir = Files.createDirectory(temp.resolve("work"));
        Path resources = Files.createDirectories(temp.resolve("cp/META-INF/native"));
        Files.copy(jdkLibrary, resources.resolve(System.mapLibraryName("rill_test_real")));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {temp.resolve("cp").toUri().toURL()}, null)) {
            NativeLibraryLoader.load("rill_test_real", loader, systemLinker(), workDir, true);
        }
        assertEquals(List.of(), list(workDir));
    }

    @Test
    void keepsTheFileWhenDeletionIsTurnedOffAndMakesItOwnerOnly() throws Exception {
        Path workDir = Files.createDirectory(temp.resolve("work"));
        RecordingLinker linker = new RecordingLinker(true);
        try (URLClassLoader loader = loaderWith("rill_test_kept", "bytes")) {
            NativeLibraryLoader.load("rill_test_kept", loader, linker, workDir, false);
        }
        Path extracted = Paths.get(linker.loaded.get(0));
        assertEquals(List.of(extracted), list(workDir));
        assertEquals("bytes", Files.readString(extracted));
        if (workDir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(extracted)));
        }
    }

    @Test
    void reportsExtractionIntoAPathThatCannotBeADirectory() throws Exception {
        Path notADirectory = Files.writeString(temp.resolve("file"), "x");
        try (URLClassLoader loader = loaderWith("rill_test_noextract", "bytes")) {
            UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeLibraryLoader.load(
                    "rill_test_noextract", loader, new RecordingLinker(true), notADirectory.resolve("sub"), true));
            assertTrue(e.getMessage().contains("1. extracting "), e.getMessage());
            assertTrue(e.getMessage().contains("-Drill.native.workdir"), e.getMessage());
            assertInstanceOf(IOException.class, e.getSuppressed()[0]);
        }
    }

    @Test
    void reportsExtractionIntoAReadOnlyDirectory() throws Exception {
        assumeTrue(temp.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path readOnly = Files.createDirectory(temp.resolve("ro"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-x------"));
        assumeFalse(Files.isWritable(readOnly), "running as root: permissions are not enforced");
        try (URLClassLoader loader = loaderWith("rill_test_readonly", "bytes")) {
            UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeLibraryLoader.load(
                    "rill_test_readonly", loader, new RecordingLinker(true), readOnly, true));
            assertTrue(e.getMessage().contains("1. extracting "), e.getMessage());
            assertTrue(e.getMessage().contains("AccessDeniedException"), e.getMessage());
        }
    }

    private URLClassLoader loaderWith(String name, String content) throws IOException {
        Path dir = Files.createDirectories(temp.resolve("cp-" + name).resolve("META-INF/native"));
        Files.writeString(dir.resolve(System.mapLibraryName(name)), content);
        return new URLClassLoader(new URL[] {temp.resolve("cp-" + name).toUri().toURL()}, null);
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    private static NativeLibraryLoader.Linker systemLinker() {
        return new NativeLibraryLoader.Linker() {
            @Override
            public void load(String absolutePath) {
                System.load(absolutePath);
            }

            @Override
            public void loadLibrary(String name) {
                System.loadLibrary(name);
            }
        };
    }
}
