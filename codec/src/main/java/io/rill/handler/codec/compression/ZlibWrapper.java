package io.rill.handler.codec.compression;

/** The container around DEFLATE data (RFC 1951) a zlib codec reads or writes. */
public enum ZlibWrapper {
    /** RFC 1950: 2-byte header, Adler-32 trailer. */
    ZLIB,
    /** RFC 1952: 10+ byte header (optional name, comment, extra field, header CRC), CRC-32 and size trailer. */
    GZIP,
    /** Raw DEFLATE, no header or trailer (e.g. HTTP's misnamed {@code deflate} from some servers). */
    NONE,
    /** Decoding only: ZLIB if the first two bytes are a valid zlib header, raw DEFLATE otherwise. */
    ZLIB_OR_NONE
}
