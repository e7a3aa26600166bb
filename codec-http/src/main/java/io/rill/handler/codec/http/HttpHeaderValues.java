package io.rill.handler.codec.http;

import io.rill.util.AsciiString;

/** Common header values and value tokens. */
public final class HttpHeaderValues {

    /** The media type of JSON (RFC 8259), for {@code content-type} and {@code accept}. */
    public static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    /** The media type of arbitrary bytes. */
    public static final AsciiString APPLICATION_OCTET_STREAM = AsciiString.cached("application/octet-stream");
    /** The media type of an HTML form sent as a query string in the body. */
    public static final AsciiString APPLICATION_X_WWW_FORM_URLENCODED = AsciiString.cached("application/x-www-form-urlencoded");
    /** The parameter of a multipart media type that names its delimiter (RFC 2046 §5.1.1). */
    public static final AsciiString BOUNDARY = AsciiString.cached("boundary");
    /** The Brotli content coding (RFC 7932). */
    public static final AsciiString BR = AsciiString.cached("br");
    /** The range unit of {@code accept-ranges} and {@code range} (RFC 9110 §14.1). */
    public static final AsciiString BYTES = AsciiString.cached("bytes");
    /** The media type parameter naming a text encoding. */
    public static final AsciiString CHARSET = AsciiString.cached("charset");
    /** The chunked transfer coding (RFC 9112 §7.1). */
    public static final AsciiString CHUNKED = AsciiString.cached("chunked");
    /** The {@code connection} option that ends the connection after this message (RFC 9112 §9.6). */
    public static final AsciiString CLOSE = AsciiString.cached("close");
    /** The {@code expect} value asking for a 100 Continue before the body is sent (RFC 9110 §10.1.1). */
    public static final AsciiString CONTINUE = AsciiString.cached("100-continue");
    /** The zlib-wrapped deflate content coding (RFC 9110 §8.4.1.2). */
    public static final AsciiString DEFLATE = AsciiString.cached("deflate");
    /** The gzip content coding (RFC 9110 §8.4.1.3). */
    public static final AsciiString GZIP = AsciiString.cached("gzip");
    /** No coding at all, in {@code accept-encoding}. */
    public static final AsciiString IDENTITY = AsciiString.cached("identity");
    /** The {@code connection} option that keeps an HTTP/1.0 connection open. */
    public static final AsciiString KEEP_ALIVE = AsciiString.cached("keep-alive");
    /** The {@code cache-control} directive giving a freshness lifetime in seconds. */
    public static final AsciiString MAX_AGE = AsciiString.cached("max-age");
    /** The media type of an HTML form with files (RFC 7578). */
    public static final AsciiString MULTIPART_FORM_DATA = AsciiString.cached("multipart/form-data");
    /** The {@code cache-control} directive: revalidate before reuse. */
    public static final AsciiString NO_CACHE = AsciiString.cached("no-cache");
    /** The {@code cache-control} directive: do not store at all. */
    public static final AsciiString NO_STORE = AsciiString.cached("no-store");
    /** The {@code accept-ranges} value saying ranges are not supported. */
    public static final AsciiString NONE = AsciiString.cached("none");
    /** The media type of HTML. */
    public static final AsciiString TEXT_HTML = AsciiString.cached("text/html");
    /** The media type of plain text. */
    public static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    /** The {@code te} value saying the client accepts trailer fields. */
    public static final AsciiString TRAILERS = AsciiString.cached("trailers");
    /** The {@code connection} option that names the {@code upgrade} field (RFC 9110 §7.8). */
    public static final AsciiString UPGRADE = AsciiString.cached("upgrade");
    /** The {@code upgrade} token of the WebSocket protocol (RFC 6455). */
    public static final AsciiString WEBSOCKET = AsciiString.cached("websocket");
    /** An old alias of {@code deflate}. */
    public static final AsciiString X_DEFLATE = AsciiString.cached("x-deflate");
    /** An old alias of {@code gzip} that recipients should treat as gzip (RFC 9110 §8.4.1.3). */
    public static final AsciiString X_GZIP = AsciiString.cached("x-gzip");
    /** The Zstandard content coding (RFC 8878). */
    public static final AsciiString ZSTD = AsciiString.cached("zstd");

    private HttpHeaderValues() {
    }
}
