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
        INFORMATIONAL, SUCCESS, REDIRECTION, CLIENT_ERROR, SERVER_ERROR;

        static Kind of(int code) {
            return values()[code / 100 - 1];
        }
    }

    /** Registered statuses by code - 100; null where none is registered. */
    private static final HttpResponseStatus[] REGISTERED = new HttpResponseStatus[500];

    public static final HttpResponseStatus CONTINUE = registered(100, "Continue");
    public static final HttpResponseStatus SWITCHING_PROTOCOLS = registered(101, "Switching Protocols");
    public static final HttpResponseStatus PROCESSING = registered(102, "Processing");
    public static final HttpResponseStatus EARLY_HINTS = registered(103, "Early Hints");
    public static final HttpResponseStatus OK = registered(200, "OK");
    public static final HttpResponseStatus CREATED = registered(201, "Created");
    public static final HttpResponseStatus ACCEPTED = registered(202, "Accepted");
    public static final HttpResponseStatus NON_AUTHORITATIVE_INFORMATION = registered(203, "Non-Authoritative Information");
    public static final HttpResponseStatus NO_CONTENT = registered(204, "No Content");
    public static final HttpResponseStatus RESET_CONTENT = registered(205, "Reset Content");
    public static final HttpResponseStatus PARTIAL_CONTENT = registered(206, "Partial Content");
    public static final HttpResponseStatus MULTI_STATUS = registered(207, "Multi-Status");
    public static final HttpResponseStatus ALREADY_REPORTED = registered(208, "Already Reported");
    public static final HttpResponseStatus IM_USED = registered(226, "IM Used");
    public static final HttpResponseStatus MULTIPLE_CHOICES = registered(300, "Multiple Choices");
    public static final HttpResponseStatus MOVED_PERMANENTLY = registered(301, "Moved Permanently");
    public static final HttpResponseStatus FOUND = registered(302, "Found");
    public static final HttpResponseStatus SEE_OTHER = registered(303, "See Other");
    public static final HttpResponseStatus NOT_MODIFIED = registered(304, "Not Modified");
    public static final HttpResponseStatus USE_PROXY = registered(305, "Use Proxy");
    public static final HttpResponseStatus TEMPORARY_REDIRECT = registered(307, "Temporary Redirect");
    public static final HttpResponseStatus PERMANENT_REDIRECT = registered(308, "Permanent Redirect");
    public static final HttpResponseStatus BAD_REQUEST = registered(400, "Bad Request");
    public static final HttpResponseStatus UNAUTHORIZED = registered(401, "Unauthorized");
    public static final HttpResponseStatus PAYMENT_REQUIRED = registered(402, "Payment Required");
    public static final HttpResponseStatus FORBIDDEN = registered(403, "Forbidden");
    public static final HttpResponseStatus NOT_FOUND = registered(404, "Not Found");
    public static final HttpResponseStatus METHOD_NOT_ALLOWED = registered(405, "Method Not Allowed");
    public static final HttpResponseStatus NOT_ACCEPTABLE = registered(406, "Not Acceptable");
    public static final HttpResponseStatus PROXY_AUTHENTICATION_REQUIRED = registered(407, "Proxy Authentication Required");
    public static final HttpResponseStatus REQUEST_TIMEOUT = registered(408, "Request Timeout");
    public static final HttpResponseStatus CONFLICT = registered(409, "Conflict");
    public static final HttpResponseStatus GONE = registered(410, "Gone");
    public static final HttpResponseStatus LENGTH_REQUIRED = registered(411, "Length Required");
    public static final HttpResponseStatus PRECONDITION_FAILED = registered(412, "Precondition Failed");
    public static final HttpResponseStatus CONTENT_TOO_LARGE = registered(413, "Content Too Large");
    public static final HttpResponseStatus URI_TOO_LONG = registered(414, "URI Too Long");
    public static final HttpResponseStatus UNSUPPORTED_MEDIA_TYPE = registered(415, "Unsupported Media Type");
    public static final HttpResponseStatus RANGE_NOT_SATISFIABLE = registered(416, "Range Not Satisfiable");
    public static final HttpResponseStatus EXPECTATION_FAILED = registered(417, "Expectation Failed");
    public static final HttpResponseStatus IM_A_TEAPOT = registered(418, "I'm a teapot");
    public static final HttpResponseStatus MISDIRECTED_REQUEST = registered(421, "Misdirected Request");
    public static final HttpResponseStatus UNPROCESSABLE_CONTENT = registered(422, "Unprocessable Content");
    public static final HttpResponseStatus LOCKED = registered(423, "Locked");
    public static final HttpResponseStatus FAILED_DEPENDENCY = registered(424, "Failed Dependency");
    public static final HttpResponseStatus TOO_EARLY = registered(425, "Too Early");
    public static final HttpResponseStatus UPGRADE_REQUIRED = registered(426, "Upgrade Required");
    public static final HttpResponseStatus PRECONDITION_REQUIRED = registered(428, "Precondition Required");
    public static final HttpResponseStatus TOO_MANY_REQUESTS = registered(429, "Too Many Requests");
    public static final HttpResponseStatus REQUEST_HEADER_FIELDS_TOO_LARGE = registered(431, "Request Header Fields Too Large");
    public static final HttpResponseStatus UNAVAILABLE_FOR_LEGAL_REASONS = registered(451, "Unavailable For Legal Reasons");
    public static final HttpResponseStatus INTERNAL_SERVER_ERROR = registered(500, "Internal Server Error");
    public static final HttpResponseStatus NOT_IMPLEMENTED = registered(501, "Not Implemented");
    public static final HttpResponseStatus BAD_GATEWAY = registered(502, "Bad Gateway");
    public static final HttpResponseStatus SERVICE_UNAVAILABLE = registered(503, "Service Unavailable");
    public static final HttpResponseStatus GATEWAY_TIMEOUT = registered(504, "Gateway Timeout");
    public static final HttpResponseStatus HTTP_VERSION_NOT_SUPPORTED = registered(505, "HTTP Version Not Supported");
    public static final HttpResponseStatus VARIANT_ALSO_NEGOTIATES = registered(506, "Variant Also Negotiates");
    public static final HttpResponseStatus INSUFFICIENT_STORAGE = registered(507, "Insufficient Storage");
    public static final HttpResponseStatus LOOP_DETECTED = registered(508, "Loop Detected");
    public static final HttpResponseStatus NOT_EXTENDED = registered(510, "Not Extended");
    public static final HttpResponseStatus NETWORK_AUTHENTICATION_REQUIRED = registered(511, "Network Authentication Required");

    private final int code;
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
        this.reasonPhrase = AsciiString.cached(reasonPhrase);
        this.codeAndReason = AsciiString.cached(code + " " + reasonPhrase).toByteArray();
    }

    private static HttpResponseStatus registered(int code, String reason) {
        HttpResponseStatus s = new HttpResponseStatus(code, reason);
        REGISTERED[code - 100] = s;
        return s;
    }

    /** The registered status with this code, or one with a generic reason phrase ("Unknown Status"). */
    public static HttpResponseStatus valueOf(int code) {
        HttpResponseStatus s = code >= 100 && code <= 599 ? REGISTERED[code - 100] : null;
        return s != null ? s : new HttpResponseStatus(code, "Unknown Status");
    }

    /** A status with this code and reason phrase; the constant when both match a registered one. */
    public static HttpResponseStatus valueOf(int code, String reasonPhrase) {
        HttpResponseStatus s = code >= 100 && code <= 599 ? REGISTERED[code - 100] : null;
        return s != null && s.reasonPhrase.contentEquals(reasonPhrase) ? s : new HttpResponseStatus(code, reasonPhrase);
    }

    public int code() {
        return code;
    }

    public AsciiString reasonPhrase() {
        return reasonPhrase;
    }

    public Kind kind() {
        return Kind.of(code);
    }

    /** 1xx: an interim response; the final one is still to come. */
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
