package io.rill.handler.codec.compression;

/**
 * Touches each optional library once, loading its native code, for {@link CompressionLibrary}. The
 * library classes are named only inside the methods, so the JVM resolves them when a method runs,
 * and a missing jar is a {@link LinkageError} there.
 */
final class LibraryProbes {

    private LibraryProbes() {
    }

    static void brotli() {
        com.aayushatharva.brotli4j.Brotli4jLoader.ensureAvailability();
    }

    static void zstd() {
        com.github.luben.zstd.Zstd.defaultCompressionLevel();
    }

    static void snappy() {
        org.xerial.snappy.Snappy.maxCompressedLength(1); // loads the native library
    }

    static void lz4() {
        net.jpountz.lz4.LZ4Factory.fastestInstance();
        net.jpountz.xxhash.XXHashFactory.fastestInstance();
    }
}
