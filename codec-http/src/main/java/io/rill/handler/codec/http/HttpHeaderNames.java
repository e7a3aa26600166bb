package io.rill.handler.codec.http;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * Common header names, in lower case (how HTTP/2 requires them, and cheapest to compare). Names
 * are compared ignoring case, so these match whatever case a peer sends.
 */
public final class HttpHeaderNames {

    /** The name of the {@code accept} header field. */
    public static final AsciiString ACCEPT = AsciiString.cached("accept");
    /** The name of the {@code accept-charset} header field. */
    public static final AsciiString ACCEPT_CHARSET = AsciiString.cached("accept-charset");
    /** The name of the {@code accept-encoding} header field. */
    public static final AsciiString ACCEPT_ENCODING = AsciiString.cached("accept-encoding");
    /** The name of the {@code accept-language} header field. */
    public static final AsciiString ACCEPT_LANGUAGE = AsciiString.cached("accept-language");
    /** The name of the {@code accept-ranges} header field. */
    public static final AsciiString ACCEPT_RANGES = AsciiString.cached("accept-ranges");
    /** The name of the {@code access-control-allow-credentials} header field. */
    public static final AsciiString ACCESS_CONTROL_ALLOW_CREDENTIALS = AsciiString.cached("access-control-allow-credentials");
    /** The name of the {@code access-control-allow-headers} header field. */
    public static final AsciiString ACCESS_CONTROL_ALLOW_HEADERS = AsciiString.cached("access-control-allow-headers");
    /** The name of the {@code access-control-allow-methods} header field. */
    public static final AsciiString ACCESS_CONTROL_ALLOW_METHODS = AsciiString.cached("access-control-allow-methods");
    /** The name of the {@code access-control-allow-origin} header field. */
    public static final AsciiString ACCESS_CONTROL_ALLOW_ORIGIN = AsciiString.cached("access-control-allow-origin");
    /** The name of the {@code access-control-expose-headers} header field. */
    public static final AsciiString ACCESS_CONTROL_EXPOSE_HEADERS = AsciiString.cached("access-control-expose-headers");
    /** The name of the {@code access-control-max-age} header field. */
    public static final AsciiString ACCESS_CONTROL_MAX_AGE = AsciiString.cached("access-control-max-age");
    /** The name of the {@code access-control-request-headers} header field. */
    public static final AsciiString ACCESS_CONTROL_REQUEST_HEADERS = AsciiString.cached("access-control-request-headers");
    /** The name of the {@code access-control-request-method} header field. */
    public static final AsciiString ACCESS_CONTROL_REQUEST_METHOD = AsciiString.cached("access-control-request-method");
    /** The name of the {@code age} header field. */
    public static final AsciiString AGE = AsciiString.cached("age");
    /** The name of the {@code allow} header field. */
    public static final AsciiString ALLOW = AsciiString.cached("allow");
    /** The name of the {@code authorization} header field. */
    public static final AsciiString AUTHORIZATION = AsciiString.cached("authorization");
    /** The name of the {@code cache-control} header field. */
    public static final AsciiString CACHE_CONTROL = AsciiString.cached("cache-control");
    /** The name of the {@code connection} header field. */
    public static final AsciiString CONNECTION = AsciiString.cached("connection");
    /** The name of the {@code content-disposition} header field. */
    public static final AsciiString CONTENT_DISPOSITION = AsciiString.cached("content-disposition");
    /** The name of the {@code content-encoding} header field. */
    public static final AsciiString CONTENT_ENCODING = AsciiString.cached("content-encoding");
    /** The name of the {@code content-language} header field. */
    public static final AsciiString CONTENT_LANGUAGE = AsciiString.cached("content-language");
    /** The name of the {@code content-length} header field. */
    public static final AsciiString CONTENT_LENGTH = AsciiString.cached("content-length");
    /** The name of the {@code content-location} header field. */
    public static final AsciiString CONTENT_LOCATION = AsciiString.cached("content-location");
    /** The name of the {@code content-range} header field. */
    public static final AsciiString CONTENT_RANGE = AsciiString.cached("content-range");
    /** The name of the {@code content-type} header field. */
    public static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    /** The name of the {@code cookie} header field. */
    public static final AsciiString COOKIE = AsciiString.cached("cookie");
    /** The name of the {@code date} header field. */
    public static final AsciiString DATE = AsciiString.cached("date");
    /** The name of the {@code etag} header field. */
    public static final AsciiString ETAG = AsciiString.cached("etag");
    /** The name of the {@code expect} header field. */
    public static final AsciiString EXPECT = AsciiString.cached("expect");
    /** The name of the {@code expires} header field. */
    public static final AsciiString EXPIRES = AsciiString.cached("expires");
    /** The name of the {@code forwarded} header field. */
    public static final AsciiString FORWARDED = AsciiString.cached("forwarded");
    /** The name of the {@code from} header field. */
    public static final AsciiString FROM = AsciiString.cached("from");
    /** The name of the {@code host} header field. */
    public static final AsciiString HOST = AsciiString.cached("host");
    /** The name of the {@code if-match} header field. */
    public static final AsciiString IF_MATCH = AsciiString.cached("if-match");
    /** The name of the {@code if-modified-since} header field. */
    public static final AsciiString IF_MODIFIED_SINCE = AsciiString.cached("if-modified-since");
    /** The name of the {@code if-none-match} header field. */
    public static final AsciiString IF_NONE_MATCH = AsciiString.cached("if-none-match");
    /** The name of the {@code if-range} header field. */
    public static final AsciiString IF_RANGE = AsciiString.cached("if-range");
    /** The name of the {@code if-unmodified-since} header field. */
    public static final AsciiString IF_UNMODIFIED_SINCE = AsciiString.cached("if-unmodified-since");
    /** The name of the {@code keep-alive} header field. */
    public static final AsciiString KEEP_ALIVE = AsciiString.cached("keep-alive");
    /** The name of the {@code last-modified} header field. */
    public static final AsciiString LAST_MODIFIED = AsciiString.cached("last-modified");
    /** The name of the {@code location} header field. */
    public static final AsciiString LOCATION = AsciiString.cached("location");
    /** The name of the {@code max-forwards} header field. */
    public static final AsciiString MAX_FORWARDS = AsciiString.cached("max-forwards");
    /** The name of the {@code origin} header field. */
    public static final AsciiString ORIGIN = AsciiString.cached("origin");
    /** The name of the {@code pragma} header field. */
    public static final AsciiString PRAGMA = AsciiString.cached("pragma");
    /** The name of the {@code proxy-authenticate} header field. */
    public static final AsciiString PROXY_AUTHENTICATE = AsciiString.cached("proxy-authenticate");
    /** The name of the {@code proxy-authorization} header field. */
    public static final AsciiString PROXY_AUTHORIZATION = AsciiString.cached("proxy-authorization");
    /** The name of the {@code proxy-connection} header field. */
    public static final AsciiString PROXY_CONNECTION = AsciiString.cached("proxy-connection");
    /** The name of the {@code range} header field. */
    public static final AsciiString RANGE = AsciiString.cached("range");
    /** The name of the {@code referer} header field. */
    public static final AsciiString REFERER = AsciiString.cached("referer");
    /** The name of the {@code retry-after} header field. */
    public static final AsciiString RETRY_AFTER = AsciiString.cached("retry-after");
    /** The name of the {@code sec-websocket-accept} header field. */
    public static final AsciiString SEC_WEBSOCKET_ACCEPT = AsciiString.cached("sec-websocket-accept");
    /** The name of the {@code sec-websocket-extensions} header field. */
    public static final AsciiString SEC_WEBSOCKET_EXTENSIONS = AsciiString.cached("sec-websocket-extensions");
    /** The name of the {@code sec-websocket-key} header field. */
    public static final AsciiString SEC_WEBSOCKET_KEY = AsciiString.cached("sec-websocket-key");
    /** The name of the {@code sec-websocket-protocol} header field. */
    public static final AsciiString SEC_WEBSOCKET_PROTOCOL = AsciiString.cached("sec-websocket-protocol");
    /** The name of the {@code sec-websocket-version} header field. */
    public static final AsciiString SEC_WEBSOCKET_VERSION = AsciiString.cached("sec-websocket-version");
    /** The name of the {@code server} header field. */
    public static final AsciiString SERVER = AsciiString.cached("server");
    /** The name of the {@code set-cookie} header field. */
    public static final AsciiString SET_COOKIE = AsciiString.cached("set-cookie");
    /** The name of the {@code te} header field. */
    public static final AsciiString TE = AsciiString.cached("te");
    /** The name of the {@code trailer} header field. */
    public static final AsciiString TRAILER = AsciiString.cached("trailer");
    /** The name of the {@code transfer-encoding} header field. */
    public static final AsciiString TRANSFER_ENCODING = AsciiString.cached("transfer-encoding");
    /** The name of the {@code upgrade} header field. */
    public static final AsciiString UPGRADE = AsciiString.cached("upgrade");
    /** The name of the {@code user-agent} header field. */
    public static final AsciiString USER_AGENT = AsciiString.cached("user-agent");
    /** The name of the {@code vary} header field. */
    public static final AsciiString VARY = AsciiString.cached("vary");
    /** The name of the {@code via} header field. */
    public static final AsciiString VIA = AsciiString.cached("via");
    /** The name of the {@code warning} header field. */
    public static final AsciiString WARNING = AsciiString.cached("warning");
    /** The name of the {@code www-authenticate} header field. */
    public static final AsciiString WWW_AUTHENTICATE = AsciiString.cached("www-authenticate");
    /** The name of the {@code x-forwarded-for} header field. */
    public static final AsciiString X_FORWARDED_FOR = AsciiString.cached("x-forwarded-for");
    /** The name of the {@code x-forwarded-proto} header field. */
    public static final AsciiString X_FORWARDED_PROTO = AsciiString.cached("x-forwarded-proto");
    /** The name of the {@code x-frame-options} header field. */
    public static final AsciiString X_FRAME_OPTIONS = AsciiString.cached("x-frame-options");
    /** The name of the {@code x-requested-with} header field. */
    public static final AsciiString X_REQUESTED_WITH = AsciiString.cached("x-requested-with");
    /** The name of the {@code http2-settings} header field. */
    public static final AsciiString HTTP2_SETTINGS = AsciiString.cached("http2-settings");

    /** The constants above grouped by length, for {@link #lookup}. */
    private static final AsciiString[][] BY_LENGTH = byLength();

    private HttpHeaderNames() {
    }

    private static AsciiString[][] byLength() {
        List<List<AsciiString>> lists = new ArrayList<>();
        for (Field f : HttpHeaderNames.class.getDeclaredFields()) {
            if (f.getType() == AsciiString.class && Modifier.isPublic(f.getModifiers())) {
                try {
                    AsciiString name = (AsciiString) f.get(null);
                    while (lists.size() <= name.length()) {
                        lists.add(new ArrayList<>());
                    }
                    lists.get(name.length()).add(name);
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        AsciiString[][] table = new AsciiString[lists.size()][];
        for (int i = 0; i < table.length; i++) {
            table[i] = lists.get(i).toArray(new AsciiString[0]);
        }
        return table;
    }

    /**
     * The constant spelled (ignoring case) by {@code length} bytes of {@code buf} at {@code index},
     * or null: lets the decoder reuse one object for every common name instead of allocating.
     */
    static AsciiString lookup(ByteBuf buf, int index, int length) {
        if (length >= BY_LENGTH.length) {
            return null;
        }
        outer:
        for (AsciiString candidate : BY_LENGTH[length]) {
            byte[] bytes = candidate.array();
            int offset = candidate.arrayOffset();
            for (int i = 0; i < length; i++) {
                if (AsciiString.toLowerCase(buf.getByte(index + i)) != bytes[offset + i]) {
                    continue outer;
                }
            }
            return candidate;
        }
        return null;
    }
}
