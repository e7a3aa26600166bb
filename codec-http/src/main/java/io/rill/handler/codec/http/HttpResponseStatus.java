package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * A response status: a three-digit code and its reason phrase (RFC 9110 §15). The registered
 * codes are constants, found by {@link #valueOf(int)} in a table; their status-line bytes are
 * made once, so encoding a response writes them with one copy.
 */
public final class HttpResponseStatus implements Comparable<HttpResponseStatus> {

    /** The class of a status, from its first digit (RFC 9110 §15). */
    public enum Kind {
        /** 1xx: an interim response; the final one follows. */
        INFORMATIONAL,
        /** 2xx: the request succeeded. */
        SUCCESS,
        /** 3xx: the client must go elsewhere to complete the request. */
        REDIRECTION,
        /** 4xx: the request was wrong. */
        CLIENT_ERROR,
        /** 5xx: the server failed to serve a valid request. */
        SERVER_ERROR;

        static Kind of(int code) {
            return values()[code / 100 - 1];
        }
    }

    /** Registered statuses by code - 100; null where none is registered. */
    private static final HttpResponseStatus[] REGISTERED = new HttpResponseStatus[500];

    /** {@code 100 Continue} (RFC 9110 §15.2.1). */
    public static final HttpResponseStatus CONTINUE = registered(100, "Continue");
    /** {@code 101 Switching Protocols} (RFC 9110 §15.2.2). */
    public static final HttpResponseStatus SWITCHING_PROTOCOLS = registered(101, "Switching Protocols");
    /** {@code 102 Processing} (RFC 2518 §10.1). */
    public static final HttpResponseStatus PROCESSING = registered(102, "Processing");
    /** {@code 103 Early Hints} (RFC 8297). */
    public static final HttpResponseStatus EARLY_HINTS = registered(103, "Early Hints");
    /** {@code 200 OK} (RFC 9110 §15.3.1). */
    public static final HttpResponseStatus OK = registered(200, "OK");
    /** {@code 201 Created} (RFC 9110 §15.3.2). */
    public static final HttpResponseStatus CREATED = registered(201, "Created");
    /** {@code 202 Accepted} (RFC 9110 §15.3.3). */
    public static final HttpResponseStatus ACCEPTED = registered(202, "Accepted");
    /** {@code 203 Non-Authoritative Information} (RFC 9110 §15.3.4). */
    public static final HttpResponseStatus NON_AUTHORITATIVE_INFORMATION = registered(203, "Non-Authoritative Information");
    /** {@code 204 No Content} (RFC 9110 §15.3.5). */
    public static final HttpResponseStatus NO_CONTENT = registered(204, "No Content");
    /** {@code 205 Reset Content} (RFC 9110 §15.3.6). */
    public static final HttpResponseStatus RESET_CONTENT = registered(205, "Reset Content");
    /** {@code 206 Partial Content} (RFC 9110 §15.3.7). */
    public static final HttpResponseStatus PARTIAL_CONTENT = registered(206, "Partial Content");
    /** {@code 207 Multi-Status} (RFC 4918 §11.1). */
    public static final HttpResponseStatus MULTI_STATUS = registered(207, "Multi-Status");
    /** {@code 208 Already Reported} (RFC 5842 §7.1). */
    public static final HttpResponseStatus ALREADY_REPORTED = registered(208, "Already Reported");
    /** {@code 226 IM Used} (RFC 3229 §10.4.1). */
    public static final HttpResponseStatus IM_USED = registered(226, "IM Used");
    /** {@code 300 Multiple Choices} (RFC 9110 §15.4.1). */
    public static final HttpResponseStatus MULTIPLE_CHOICES = registered(300, "Multiple Choices");
    /** {@code 301 Moved Permanently} (RFC 9110 §15.4.2). */
    public static final HttpResponseStatus MOVED_PERMANENTLY = registered(301, "Moved Permanently");
    /** {@code 302 Found} (RFC 9110 §15.4.3). */
    public static final HttpResponseStatus FOUND = registered(302, "Found");
    /** {@code 303 See Other} (RFC 9110 §15.4.4). */
    public static final HttpResponseStatus SEE_OTHER = registered(303, "See Other");
    /** {@code 304 Not Modified} (RFC 9110 §15.4.5). */
    public static final HttpResponseStatus NOT_MODIFIED = registered(304, "Not Modified");
    /** {@code 305 Use Proxy} (RFC 9110 §15.4.6). */
    public static final HttpResponseStatus USE_PROXY = registered(305, "Use Proxy");
    /** {@code 307 Temporary Redirect} (RFC 9110 §15.4.8). */
    public static final HttpResponseStatus TEMPORARY_REDIRECT = registered(307, "Temporary Redirect");
    /** {@code 308 Permanent Redirect} (RFC 9110 §15.4.9). */
    public static final HttpResponseStatus PERMANENT_REDIRECT = registered(308, "Permanent Redirect");
    /** {@code 400 Bad Request} (RFC 9110 §15.5.1). */
    public static final HttpResponseStatus BAD_REQUEST = registered(400, "Bad Request");
    /** {@code 401 Unauthorized} (RFC 9110 §15.5.2). */
    public static final HttpResponseStatus UNAUTHORIZED = registered(401, "Unauthorized");
    /** {@code 402 Payment Required} (RFC 9110 §15.5.3). */
    public static final HttpResponseStatus PAYMENT_REQUIRED = registered(402, "Payment Required");
    /** {@code 403 Forbidden} (RFC 9110 §15.5.4). */
    public static final HttpResponseStatus FORBIDDEN = registered(403, "Forbidden");
    /** {@code 404 Not Found} (RFC 9110 §15.5.5). */
    public static final HttpResponseStatus NOT_FOUND = registered(404, "Not Found");
    /** {@code 405 Method Not Allowed} (RFC 9110 §15.5.6). */
    public static final HttpResponseStatus METHOD_NOT_ALLOWED = registered(405, "Method Not Allowed");
    /** {@code 406 Not Acceptable} (RFC 9110 §15.5.7). */
    public static final HttpResponseStatus NOT_ACCEPTABLE = registered(406, "Not Acceptable");
    /** {@code 407 Proxy Authentication Required} (RFC 9110 §15.5.8). */
    public static final HttpResponseStatus PROXY_AUTHENTICATION_REQUIRED = registered(407, "Proxy Authentication Required");
    /** {@code 408 Request Timeout} (RFC 9110 §15.5.9). */
    public static final HttpResponseStatus REQUEST_TIMEOUT = registered(408, "Request Timeout");
    /** {@code 409 Conflict} (RFC 9110 §15.5.10). */
    public static final HttpResponseStatus CONFLICT = registered(409, "Conflict");
    /** {@code 410 Gone} (RFC 9110 §15.5.11). */
    public static final HttpResponseStatus GONE = registered(410, "Gone");
    /** {@code 411 Length Required} (RFC 9110 §15.5.12). */
    public static final HttpResponseStatus LENGTH_REQUIRED = registered(411, "Length Required");
    /** {@code 412 Precondition Failed} (RFC 9110 §15.5.13). */
    public static final HttpResponseStatus PRECONDITION_FAILED = registered(412, "Precondition Failed");
    /** {@code 413 Content Too Large} (RFC 9110 §15.5.14). */
    public static final HttpResponseStatus CONTENT_TOO_LARGE = registered(413, "Content Too Large");
    /** {@code 414 URI Too Long} (RFC 9110 §15.5.15). */
    public static final HttpResponseStatus URI_TOO_LONG = registered(414, "URI Too Long");
    /** {@code 415 Unsupported Media Type} (RFC 9110 §15.5.16). */
    public static final HttpResponseStatus UNSUPPORTED_MEDIA_TYPE = registered(415, "Unsupported Media Type");
    /** {@code 416 Range Not Satisfiable} (RFC 9110 §15.5.17). */
    public static final HttpResponseStatus RANGE_NOT_SATISFIABLE = registered(416, "Range Not Satisfiable");
    /** {@code 417 Expectation Failed} (RFC 9110 §15.5.18). */
    public static final HttpResponseStatus EXPECTATION_FAILED = registered(417, "Expectation Failed");
    /** {@code 418 I'm a teapot} (RFC 2324 §2.3.2; RFC 9110 §15.5.19 keeps the code unused). */
    public static final HttpResponseStatus IM_A_TEAPOT = registered(418, "I'm a teapot");
    /** {@code 421 Misdirected Request} (RFC 9110 §15.5.20). */
    public static final HttpResponseStatus MISDIRECTED_REQUEST = registered(421, "Misdirected Request");
    /** {@code 422 Unprocessable Content} (RFC 9110 §15.5.21). */
    public static final HttpResponseStatus UNPROCESSABLE_CONTENT = registered(422, "Unprocessable Content");
    /** {@code 423 Locked} (RFC 4918 §11.3). */
    public static final HttpResponseStatus LOCKED = registered(423, "Locked");
    /** {@code 424 Failed Dependency} (RFC 4918 §11.4). */
    public static final HttpResponseStatus FAILED_DEPENDENCY = registered(424, "Failed Dependency");
    /** {@code 425 Too Early} (RFC 8470 §5.2). */
    public static final HttpResponseStatus TOO_EARLY = registered(425, "Too Early");
    /** {@code 426 Upgrade Required} (RFC 9110 §15.5.22). */
    public static final HttpResponseStatus UPGRADE_REQUIRED = registered(426, "Upgrade Required");
    /** {@code 428 Precondition Required} (RFC 6585 §3). */
    public static final HttpResponseStatus PRECONDITION_REQUIRED = registered(428, "Precondition Required");
    /** {@code 429 Too Many Requests} (RFC 6585 §4). */
    public static final HttpResponseStatus TOO_MANY_REQUESTS = registered(429, "Too Many Requests");
    /** {@code 431 Request Header Fields Too Large} (RFC 6585 §5). */
    public static final HttpResponseStatus REQUEST_HEADER_FIELDS_TOO_LARGE = registered(431, "Request Header Fields Too Large");
    /** {@code 451 Unavailable For Legal Reasons} (RFC 7725 §3). */
    public static final HttpResponseStatus UNAVAILABLE_FOR_LEGAL_REASONS = registered(451, "Unavailable For Legal Reasons");
    /** {@code 500 Internal Server Error} (RFC 9110 §15.6.1). */
    public static final HttpResponseStatus INTERNAL_SERVER_ERROR = registered(500, "Internal Server Error");
    /** {@code 501 Not Implemented} (RFC 9110 §15.6.2). */
    public static final HttpResponseStatus NOT_IMPLEMENTED = registered(501, "Not Implemented");
    /** {@code 502 Bad Gateway} (RFC 9110 §15.6.3). */
    public static final HttpResponseStatus BAD_GATEWAY = registered(502, "Bad Gateway");
    /** {@code 503 Service Unavailable} (RFC 9110 §15.6.4). */
    public static final HttpResponseStatus SERVICE_UNAVAILABLE = registered(503, "Service Unavailable");
    /** {@code 504 Gateway Timeout} (RFC 9110 §15.6.5). */
    public static final HttpResponseStatus GATEWAY_TIMEOUT = registered(504, "Gateway Timeout");
    /** {@code 505 HTTP Version Not Supported} (RFC 9110 §15.6.6). */
    public static final HttpResponseStatus HTTP_VERSION_NOT_SUPPORTED = registered(505, "HTTP Version Not Supported");
    /** {@code 506 Variant Also Negotiates} (RFC 2295 §8.1). */
    public static final HttpResponseStatus VARIANT_ALSO_NEGOTIATES = registered(506, "Variant Also Negotiates");
    /** {@code 507 Insufficient Storage} (RFC 4918 §11.5). */
    public static final HttpResponseStatus INSUFFICIENT_STORAGE = registered(507, "Insufficient Storage");
    /** {@code 508 Loop Detected} (RFC 5842 §7.2). */
    public static final HttpResponseStatus LOOP_DETECTED = registered(508, "Loop Detected");
    /** {@code 510 Not Extended} (RFC 2774 §7). */
    public static final HttpResponseStatus NOT_EXTENDED = registered(510, "Not Extended");
    /** {@code 511 Network Authentication Required} (RFC 6585 §6). */
    public static final HttpResponseStatus NETWORK_AUTHENTICATION_REQUIRED = registered(511, "Network Authentication Required");

    private final int code;
    /** {@link #code} as three ASCII digits, made once: HTTP/2's {@code :status} field carries it as text. */
    private final AsciiString codeAsText;
    private final AsciiString reasonPhrase;
    /** {@code "<code> <reason>"}, the status line after the version and a space. */
    private final byte[] codeAndReason;

    private HttpResponseStatus(int code, String reasonPhrase) {
        if (code < 100 || code > 599) {
            throw new IllegalArgumentException("status code out of range 100-599: " + code);
        }
        for (int i = 0; i < reasonPhrase.length(); i++) {
            char c = reasonPhrase.charAt(i);
            if (c == '\r' || c == '\n' || c > 0xff || c < 0x20 && c != '\t' || c == 0x7f) {
                throw new IllegalArgumentException("reason phrase with a control character at " + i + ": \""
                        + reasonPhrase.replace("\r", "\\r").replace("\n", "\\n") + '"');
            }
        }
        this.code = code;
        this.codeAsText = AsciiString.cached(Integer.toString(code));
        this.reasonPhrase = AsciiString.cached(reasonPhrase);
        this.codeAndReason = AsciiString.cached(code + " " + reasonPhrase).toByteArray();
    }

    private static HttpResponseStatus registered(int code, String reason) {
        HttpResponseStatus s = new HttpResponseStatus(code, reason);
        REGISTERED[code - 100] = s;
        return s;
    }

    /**
     * The registered status with this code, or one with a generic reason phrase ("Unknown Status").
     *
     * @param code the status code
     * @return the registered constant, or a new status
     */
    public static HttpResponseStatus valueOf(int code) {
        HttpResponseStatus s = code >= 100 && code <= 599 ? REGISTERED[code - 100] : null;
        return s != null ? s : new HttpResponseStatus(code, "Unknown Status");
    }

    /**
     * A status with this code and reason phrase; the constant when both match a registered one.
     *
     * @param code         the status code
     * @param reasonPhrase the reason phrase
     * @return the registered constant, or a new status
     */
    public static HttpResponseStatus valueOf(int code, String reasonPhrase) {
        HttpResponseStatus s = code >= 100 && code <= 599 ? REGISTERED[code - 100] : null;
        return s != null && s.reasonPhrase.contentEquals(reasonPhrase) ? s : new HttpResponseStatus(code, reasonPhrase);
    }

    /**
     * The three-digit status code.
     *
     * @return the code
     */
    public int code() {
        return code;
    }

    /**
     * The status code as text, for an HTTP/2 {@code :status} field, which carries it so. The same
     * instance on every call, so it costs nothing per response.
     *
     * @return the three digits of {@link #code()}, e.g. {@code "200"}
     */
    public AsciiString codeAsText() {
        return codeAsText;
    }

    /**
     * The reason phrase, a hint for humans that clients must not rely on (RFC 9112 §4).
     *
     * @return the reason phrase
     */
    public AsciiString reasonPhrase() {
        return reasonPhrase;
    }

    /**
     * The class of this status, from its first digit.
     *
     * @return informational, success, redirection, client error or server error
     */
    public Kind kind() {
        return Kind.of(code);
    }

    /**
     * 1xx: an interim response; the final one is still to come.
     *
     * @return whether the code is below 200
     */
    public boolean isInformational() {
        return code < 200;
    }

    void encode(ByteBuf out) {
        out.writeBytes(codeAndReason);
    }

    @Override
    public int compareTo(HttpResponseStatus o) {
        return Integer.compare(code, o.code);
    }

    /** Statuses are equal when their codes are; the reason phrase is only a hint (RFC 9112 §4). */
    @Override
    public boolean equals(Object o) {
        return o instanceof HttpResponseStatus s && s.code == code;
    }

    @Override
    public int hashCode() {
        return code;
    }

    @Override
    public String toString() {
        return code + " " + reasonPhrase;
    }
}
