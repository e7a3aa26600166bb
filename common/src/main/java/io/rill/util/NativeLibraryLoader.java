package io.rill.util;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Loads a JNI library bundled in a jar, falling back to one installed on the system.
 *
 * <ol>
 *   <li>Look up {@code META-INF/native/} + {@link System#mapLibraryName(String)} of the name
 *       ({@code libfoo.so} on Linux) through the given class loader.</li>
 *   <li>Copy it to a new file, readable only by the owner, in {@code rill.native.workdir}
 *       (default {@code java.io.tmpdir}) and {@code System.load} it. The file is deleted right
 *       after: on Linux a loaded library stays mapped without its directory entry, and
 *       elsewhere {@code deleteOnExit} is the fallback.</li>
 *   <li>If the class loader does not see it, look in the modules of the module path (or the
 *       jlink image) that were not resolved: a jar carrying only the library is such a module.</li>
 *   <li>Else {@code System.loadLibrary(name)}, searching {@code java.library.path}.</li>
 * </ol>
 *
 * If all of that fails, the {@link UnsatisfiedLinkError} lists every attempt and why it failed
 * (resource missing, extraction failed, load failed), with the original errors suppressed in
 * it, so "why doesn't epoll load" is answered by one stack trace.
 *
 * <p>Names are qualified by the caller with the platform, e.g.
 * {@code "rill_transport_native_epoll_" + PlatformInfo.arch()}, so one jar can carry several.
 *
 * <p>The JVM binds a JNI library to the class loader of the class calling {@code System.load}.
 * {@link #load(String, ClassLoader)} calls it from here, which is right when Rill's modules
 * share a class loader (the class path, a module layer); a caller in another class loader
 * passes a {@link Linker} implemented in its own code.
 */
public final class NativeLibraryLoader {

    private static final InternalLogger logger = InternalLogger.get(NativeLibraryLoader.class);
    private static final String RESOURCE_DIR = "META-INF/native/";

    /** Performs the actual loads, so the library binds to the implementing class's loader. */
    public interface Linker {
        /**
         * Typically {@code System.load(absolutePath)}.
         *
         * @param absolutePath the library file, extracted from the jar
         */
        void load(String absolutePath);

        /**
         * Typically {@code System.loadLibrary(name)}.
         *
         * @param name the library name without prefix and suffix, looked up on {@code java.library.path}
         */
        void loadLibrary(String name);
    }

    private static final Linker ownLinker = new Linker() {
        @Override
        public void load(String absolutePath) {
            System.load(absolutePath);
        }

        @Override
        public void loadLibrary(String name) {
            System.loadLibrary(name);
        }
    };

    private NativeLibraryLoader() {
    }

    /**
     * Loads {@code name} from {@code loader}'s {@code META-INF/native/} or the library path.
     *
     * @param loader where to look for the bundled library; null means the system class loader
     * @throws UnsatisfiedLinkError listing every attempt when none succeeded
     * @param name the library name without {@code lib} prefix and {@code .so} suffix
     */
    public static void load(String name, ClassLoader loader) {
        load(name, loader, ownLinker);
    }

    /**
     * Whether module {@code name} is on the module path (or linked into the run-time image) but
     * was not resolved into the boot layer, because nothing {@code requires} it and no
     * {@code --add-modules} names it: lets a caller whose optional dependency is missing say
     * which flag is needed instead of "not found".
     *
     * @param name the module's name, e.g. {@code io.netty.tcnative.classes.openssl}
     * @return {@code true} if the module can be found but is not in the boot layer
     */
    public static boolean isUnresolvedModule(String name) {
        return UnresolvedModules.isObservableButUnresolved(name);
    }

    /**
     * Like {@link #load(String, ClassLoader)}, loading through {@code linker}.
     *
     * @param name the library name without {@code lib} prefix and {@code .so} suffix
     * @param loader where to look for the bundled library; null means the system class loader
     * @param linker what makes the JNI calls; tests pass one that records or fails
     */
    public static void load(String name, ClassLoader loader, Linker linker) {
        String dir = RillProperties.NATIVE_WORKDIR;
        Path workDir = Paths.get(dir != null ? dir : System.getProperty("java.io.tmpdir"));
        load(name, loader, linker, workDir, RillProperties.NATIVE_DELETE_LIB_AFTER_LOADING);
    }

    static void load(String name, ClassLoader loader, Linker linker, Path workDir, boolean deleteAfterLoad) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(linker, "linker");
        List<String> attempts = new ArrayList<>();
        List<Throwable> causes = new ArrayList<>();
        String fileName = System.mapLibraryName(name);
        String resource = RESOURCE_DIR + fileName;
        URL url = loader == null ? ClassLoader.getSystemResource(resource) : loader.getResource(resource);
        if (url == null) {
            // A jar that only carries the library is a module nothing requires, so left unresolved.
            url = UnresolvedModules.findResource(resource, attempts).orElse(null);
            if (url == null) {
                attempts.add("resource " + resource + " not found by class loader " + loader
                        + " nor in a module of the module path or the run-time image");
            }
        }
        if (url != null && loadBundled(url, fileName, linker, workDir, deleteAfterLoad, attempts, causes)) {
            return;
        }
        try {
            linker.loadLibrary(name);
            logger.debug("Loaded native library {} from java.library.path", name);
            return;
        } catch (UnsatisfiedLinkError | SecurityException e) {
            attempts.add("System.loadLibrary(\"" + name + "\") failed: " + e.getMessage()
                    + " (java.library.path=" + System.getProperty("java.library.path") + ')');
            causes.add(e);
        }
        StringBuilder message = new StringBuilder("could not load native library '").append(name).append("':");
        for (int i = 0; i < attempts.size(); i++) {
            message.append("\n  ").append(i + 1).append(". ").append(attempts.get(i));
        }
        UnsatisfiedLinkError error = new UnsatisfiedLinkError(message.toString());
        causes.forEach(error::addSuppressed);
        throw error;
    }

    private static boolean loadBundled(URL url, String fileName, Linker linker, Path workDir,
                                       boolean deleteAfterLoad, List<String> attempts, List<Throwable> causes) {
        Path file;
        try {
            file = extract(url, fileName, workDir);
        } catch (IOException | RuntimeException e) {
            attempts.add("extracting " + url + " into " + workDir + " failed: " + e
                    + " (set -Drill.native.workdir to a writable directory)");
            causes.add(e);
            return false;
        }
        boolean loaded = false;
        try {
            linker.load(file.toString());
            loaded = true;
            logger.debug("Loaded native library {} extracted to {}", url, file);
            return true;
        } catch (UnsatisfiedLinkError | SecurityException e) {
            attempts.add("loading " + file + " extracted from " + url + " failed: " + e.getMessage()
                    + " (if " + workDir + " is mounted noexec, set -Drill.native.workdir to another directory)");
            causes.add(e);
            return false;
        } finally {
            if (deleteAfterLoad || !loaded) {
                delete(file);
            }
        }
    }

    /** Copies the resource into a new owner-only file; on failure nothing is left behind. */
    private static Path extract(URL url, String fileName, Path workDir) throws IOException {
        Files.createDirectories(workDir);
        int dot = fileName.lastIndexOf('.');
        String prefix = (dot > 0 ? fileName.substring(0, dot) : fileName) + '-';
        String suffix = dot > 0 ? fileName.substring(dot) : null;
        Path file = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? Files.createTempFile(workDir, prefix, suffix,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
                : Files.createTempFile(workDir, prefix, suffix);
        try (InputStream in = url.openStream(); OutputStream out = Files.newOutputStream(file)) {
            // newOutputStream keeps the restricted permissions that Files.copy would not.
            in.transferTo(out);
        } catch (IOException | RuntimeException e) {
            delete(file);
            throw e;
        }
        return file;
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException | SecurityException e) {
            // Windows refuses to delete a loaded DLL; let the JVM retry at exit.
            file.toFile().deleteOnExit();
        }
    }
}
