package io.rill.handler.codec.http2;

import io.rill.handler.codec.http.DefaultHttpRequest;
import io.rill.handler.codec.http.DefaultHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.util.AsciiString;

/**
 * Field sections between HTTP/2 and the HTTP/1 message model, both ways (RFC 9113 §8.2, §8.3).
 * HTTP/2 carries the request line and status line as pseudo-header fields, has no
 * connection-specific fields, and may split {@code cookie} into one field per cookie; HTTP/1
 * wants a request line, a status line, {@code host}, and one {@code cookie} field.
 */
final class Http1HeaderTranslation {

    private Http1HeaderTranslation() {
    }

    // ---------------------------------------------------------------- HTTP/2 -> HTTP/1

    /**
     * A request head from a request's fields: {@code :method} and {@code :path} (or, for
     * CONNECT, {@code :authority}) make the request line, {@code :authority} becomes {@code host}.
     *
     * @throws IllegalArgumentException when a pseudo-header field is missing or malformed
     */
    static HttpRequest toRequest(Http2Headers fields) {
        CharSequence method = require(fields.method(), ":method");
        HttpMethod httpMethod = HttpMethod.valueOf(method);
        CharSequence authority = fields.authority();
        String uri = HttpMethod.CONNECT.equals(httpMethod) && fields.protocol() == null
                ? require(authority, ":authority").toString()
                : require(fields.path(), ":path").toString();
        HttpHeaders headers = new HttpHeaders();
        if (authority != null) {
            // §8.3.1: :authority stands for Host; a Host field beside it says the same or less.
            headers.add(HttpHeaderNames.HOST, authority);
        }
        copyRegular(fields, headers, authority != null);
        return new DefaultHttpRequest(HttpVersion.HTTP_1_1, httpMethod, uri, headers);
    }

    /** A response head from a response's fields: {@code :status} makes the status line. */
    static HttpResponse toResponse(Http2Headers fields) {
        HttpHeaders headers = new HttpHeaders();
        copyRegular(fields, headers, false);
        return new DefaultHttpResponse(HttpVersion.HTTP_1_1, status(fields), headers);
    }

    /** Trailer fields; trailers carry no pseudo-header fields (§8.1). */
    static HttpHeaders toTrailers(Http2Headers fields) {
        HttpHeaders headers = new HttpHeaders();
        copyRegular(fields, headers, false);
        return headers;
    }

    /** The status code of a response's fields. */
    static HttpResponseStatus status(Http2Headers fields) {
        CharSequence status = require(fields.status(), ":status");
        if (status.length() != 3) {
            throw new IllegalArgumentException(":status '" + status + "' is not a three-digit code");
        }
        int code = 0;
        for (int i = 0; i < 3; i++) {
            char c = status.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException(":status '" + status + "' is not a three-digit code");
            }
            code = code * 10 + (c - '0');
        }
        return HttpResponseStatus.valueOf(code);
    }

    /**
     * Copies the regular fields; the cookie fields HTTP/2 may have split become one field joined
     * with "; " (RFC 9113 §8.2.3), placed where the first one was.
     */
    private static void copyRegular(Http2Headers from, HttpHeaders to, boolean skipHost) {
        boolean cookieDone = false;
        for (int i = 0; i < from.size(); i++) {
            CharSequence name = from.nameAt(i);
            if (Http2Headers.isPseudoHeader(name) || skipHost && AsciiString.contentEquals(name, HttpHeaderNames.HOST)) {
                continue;
            }
            if (AsciiString.contentEquals(name, HttpHeaderNames.COOKIE)) {
                if (!cookieDone) {
                    cookieDone = true;
                    to.add(HttpHeaderNames.COOKIE, String.join("; ", from.getAll(HttpHeaderNames.COOKIE)));
                }
                continue;
            }
            to.add(name, from.valueAt(i));
        }
    }

    private static CharSequence require(CharSequence value, String name) {
        if (value == null || value.length() == 0) {
            throw new IllegalArgumentException("the field section has no " + name);
        }
        return value;
    }

    // ---------------------------------------------------------------- HTTP/1 -> HTTP/2

    /**
     * A request's fields: the request line becomes {@code :method}, {@code :scheme},
     * {@code :authority} and {@code :path}; an absolute-form target gives its own scheme and
     * authority, an origin-form one takes {@code host} as the authority (§8.3.1). CONNECT has only
     * {@code :method} and {@code :authority} (§8.5). Cookies go out one per field (§8.2.3), which
     * lets HPACK index each on its own.
     *
     * @param scheme the scheme for an origin-form target: {@code http} or {@code https}
     */
    static Http2Headers fromRequest(HttpRequest request, String scheme) {
        Http2Headers fields = new Http2Headers();
        String uri = request.uri();
        CharSequence host = request.headers().getCharSequence(HttpHeaderNames.HOST);
        fields.method(request.method().asciiName());
        if (HttpMethod.CONNECT.equals(request.method())) {
            fields.authority(uri);
        } else {
            int schemeEnd = uri.indexOf("://");
            if (schemeEnd > 0 && uri.charAt(0) != '/') {
                int pathStart = uri.indexOf('/', schemeEnd + 3);
                int queryStart = uri.indexOf('?', schemeEnd + 3);
                int end = pathStart < 0 ? queryStart : queryStart < 0 ? pathStart : Math.min(pathStart, queryStart);
                fields.scheme(uri.substring(0, schemeEnd));
                fields.authority(uri.substring(schemeEnd + 3, end < 0 ? uri.length() : end));
                String path = end < 0 ? "/" : uri.substring(end);
                fields.path(path.startsWith("?") ? "/" + path : path);
            } else {
                fields.scheme(scheme);
                if (host != null) {
                    fields.authority(host);
                }
                fields.path(uri.isEmpty() ? "/" : uri);
            }
        }
        copyForHttp2(request.headers(), fields, true);
        return fields;
    }

    /** A response's fields: the status line becomes {@code :status}. */
    static Http2Headers fromResponse(HttpResponse response) {
        Http2Headers fields = new Http2Headers().status(Integer.toString(response.status().code()));
        copyForHttp2(response.headers(), fields, false);
        return fields;
    }

    /** Trailer fields, without what HTTP/2 forbids. */
    static Http2Headers fromTrailers(HttpHeaders trailers) {
        Http2Headers fields = new Http2Headers();
        copyForHttp2(trailers, fields, false);
        return fields;
    }

    /**
     * Copies the fields HTTP/2 may carry: not the connection-specific ones, nor those the
     * {@code connection} field names (§8.2.2), {@code te} only as {@code trailers}, {@code host}
     * not at all in a request (it became {@code :authority}). Names are lower-cased (§8.2.1).
     */
    private static void copyForHttp2(HttpHeaders from, Http2Headers to, boolean request) {
        for (int i = 0; i < from.size(); i++) {
            CharSequence name = from.nameAt(i);
            CharSequence value = from.valueAt(i);
            if (isConnectionSpecific(name) || request && AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.HOST)
                    || from.containsValue(HttpHeaderNames.CONNECTION, name, true)) {
                continue;
            }
            if (AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.TE)) {
                if (containsToken(value, "trailers")) {
                    to.add(HttpHeaderNames.TE, "trailers");
                }
                continue;
            }
            if (request && AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.COOKIE)) {
                for (String cookie : value.toString().split(";")) {
                    String trimmed = cookie.strip();
                    if (!trimmed.isEmpty()) {
                        to.add(HttpHeaderNames.COOKIE, trimmed);
                    }
                }
                continue;
            }
            to.add(name, value);
        }
    }

    /** The fields RFC 9113 §8.2.2 says an HTTP/2 message must not contain. */
    static boolean isConnectionSpecific(CharSequence name) {
        return AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.CONNECTION)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.KEEP_ALIVE)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.PROXY_CONNECTION)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.TRANSFER_ENCODING)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.UPGRADE)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.HTTP2_SETTINGS);
    }

    /** Whether a comma-separated list contains {@code token}, ignoring case and whitespace. */
    static boolean containsToken(CharSequence list, String token) {
        for (String part : list.toString().split(",")) {
            if (part.strip().equalsIgnoreCase(token)) {
                return true;
            }
        }
        return false;
    }
}
