package io.rill.handler.codec.http;

import io.rill.util.AsciiString;

/** Common header values and value tokens. */
public final class HttpHeaderValues {

    public static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    public static final AsciiString APPLICATION_OCTET_STREAM = AsciiString.cached("application/octet-stream");
    public static final AsciiString APPLICATION_X_WWW_FORM_URLENCODED = AsciiString.cached("application/x-www-form-urlencoded");
    public static final AsciiString BOUNDARY = AsciiString.cached("boundary");
    public static final AsciiString BR = AsciiString.cached("br");
    public static final AsciiString BYTES = AsciiString.cached("bytes");
    public static final AsciiString CHARSET = AsciiString.cached("charset");
    public static final AsciiString CHUNKED = AsciiString.cached("chunked");
    public static final AsciiString CLOSE = AsciiString.cached("close");
    public static final AsciiString CONTINUE = AsciiString.cached("100-continue");
    public static final AsciiString DEFLATE = AsciiString.cached("deflate");
    public static final AsciiString GZIP = AsciiString.cached("gzip");
    public static final AsciiString IDENTITY = AsciiString.cached("identity");
    public static final AsciiString KEEP_ALIVE = AsciiString.cached("keep-alive");
    public static final AsciiString MAX_AGE = AsciiString.cached("max-age");
    public static final AsciiString MULTIPART_FORM_DATA = AsciiString.cached("multipart/form-data");
    public static final AsciiString NO_CACHE = AsciiString.cached("no-cache");
    public static final AsciiString NO_STORE = AsciiString.cached("no-store");
    public static final AsciiString NONE = AsciiString.cached("none");
    public static final AsciiString TEXT_HTML = AsciiString.cached("text/html");
    public static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    public static final AsciiString TRAILERS = AsciiString.cached("trailers");
    public static final AsciiString UPGRADE = AsciiString.cached("upgrade");
    public static final AsciiString WEBSOCKET = AsciiString.cached("websocket");
    public static final AsciiString X_DEFLATE = AsciiString.cached("x-deflate");
    public static final AsciiString X_GZIP = AsciiString.cached("x-gzip");
    public static final AsciiString ZSTD = AsciiString.cached("zstd");

    private HttpHeaderValues() {
    }
}
