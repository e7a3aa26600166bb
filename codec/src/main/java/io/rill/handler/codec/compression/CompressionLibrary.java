package io.rill.handler.codec.compression;

/**
 * The optional libraries behind the brotli, zstd, snappy and lz4 codecs. rill-codec depends on
 * none of them: an application adds the jar of each format it uses. Each codec's constructor calls
 * {@link #ensureAvailable()}, so a missing jar (or a native library that cannot load on this
 * platform) is an {@link IllegalStateException} naming the jar when the pipeline is built, never a
 * {@code NoClassDefFoundError} in the middle of a read. {@link #isAvailable()} lets a caller, such
 * as the HTTP compressor, leave a format out instead.
 *
 * <p>Each library loads JNI code: on JDK 24 and later pass {@code --enable-native-access=ALL-UNNAMED}
 * (class path) or the library's module name (module path) to run without the JDK's warning.
 * In a JPMS module graph rill-codec reads these modules with {@code requires static}, which does not
 * resolve them by itself: put the jar on the module path and add it with {@code --add-modules}.
 */
public enum CompressionLibrary {
    /** brotli4j and its native jar for the platform. */
    BROTLI("com.aayushatharva.brotli4j:brotli4j with the native jar of this platform"
            + " (com.aayushatharva.brotli4j:native-linux-x86_64, ...)"),
    /** zstd-jni, which carries its native libraries. */
    ZSTD("com.github.luben:zstd-jni"),
    /** snappy-java, which carries its native libraries. */
    SNAPPY("org.xerial.snappy:snappy-java"),
    /** lz4-java's maintained fork, which carries its native libraries (the {@code net.jpountz} classes). */
    LZ4("at.yawk.lz4:lz4-java");

    /** The Maven coordinates to name when the library is missing. */
    private final String jar;
    /** Null until probed; then {@link #AVAILABLE} or the failure. Racy but idempotent. */
    private volatile Throwable probe;

    /** The probe's result when the library loaded. */
    private static final Throwable AVAILABLE = new Throwable("available", null, false, false) { };

    CompressionLibrary(String jar) {
        this.jar = jar;
    }

    /**
     * The jar this format needs, as Maven coordinates.
     *
     * @return e.g. {@code com.github.luben:zstd-jni}
     */
    public String jar() {
        return jar;
    }

    /**
     * Whether the library's classes and native code load here; probed once.
     *
     * @return true if codecs of this format can be built
     */
    public boolean isAvailable() {
        return result() == AVAILABLE;
    }

    /**
     * Why the library cannot be used.
     *
     * @return the failure of loading it, or null if it is available
     */
    public Throwable unavailabilityCause() {
        Throwable t = result();
        return t == AVAILABLE ? null : t;
    }

    /**
     * Fails unless the library is available.
     *
     * @throws IllegalStateException naming the missing jar, with the load failure as its cause
     */
    public void ensureAvailable() {
        Throwable t = result();
        if (t != AVAILABLE) {
            throw new IllegalStateException(name().toLowerCase(java.util.Locale.ROOT) + " compression needs " + jar
                    + " on the class or module path: " + t, t);
        }
    }

    private Throwable result() {
        Throwable t = probe;
        if (t == null) {
            try {
                // Each probe is its own class, so a missing jar fails only the probe that names it.
                switch (this) {
                    case BROTLI -> LibraryProbes.brotli();
                    case ZSTD -> LibraryProbes.zstd();
                    case SNAPPY -> LibraryProbes.snappy();
                    case LZ4 -> LibraryProbes.lz4();
                }
                t = AVAILABLE;
            } catch (LinkageError | RuntimeException e) {
                t = e;
            }
            probe = t;
        }
        return t;
    }
}
