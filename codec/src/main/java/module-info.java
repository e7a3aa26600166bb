/**
 * Codecs: the decoder and encoder base classes ({@link io.rill.handler.codec.ByteToMessageDecoder} and
 * friends), frame decoders (fixed length, length field, delimiter, line, varint32), string and line
 * codecs, base64, and zlib/gzip/deflate compression with a bound on decompressed size.
 */
module io.rill.codec {
    requires transitive io.rill.transport;

    exports io.rill.handler.codec;
    exports io.rill.handler.codec.string;
    exports io.rill.handler.codec.base64;
    exports io.rill.handler.codec.compression;
}
