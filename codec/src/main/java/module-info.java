/**
 * Codecs: the decoder and encoder base classes ({@link io.rill.handler.codec.ByteToMessageDecoder} and
 * friends), frame decoders (fixed length, length field, delimiter, line, varint32), string and line
 * codecs, base64, zlib/gzip/deflate compression, and brotli, zstd, snappy and lz4 over optional libraries, all with a bound on
 * decompressed size.
 */
@SuppressWarnings("requires-automatic")
module io.rill.codec {
    requires transitive io.rill.transport;
    // Optional: the brotli, zstd, snappy and lz4 codecs need them, nothing else does (CompressionLibrary).
    requires static com.aayushatharva.brotli4j;
    requires static com.github.luben.zstd_jni;
    requires static org.xerial.snappy;
    requires static org.lz4.java;

    exports io.rill.handler.codec;
    exports io.rill.handler.codec.string;
    exports io.rill.handler.codec.base64;
    exports io.rill.handler.codec.compression;
}
