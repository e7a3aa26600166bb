package io.rill.handler.codec.http2;

import io.rill.util.AsciiString;

/**
 * The rules of RFC 9113 §8.2 and §8.3 on field sections. The per-field rules (name and value
 * syntax, connection-specific fields, pseudo-header names) are applied by {@link HpackDecoder}
 * as it decodes, and return a description of the problem instead of throwing so the decoder can
 * finish the block; the whole-section rules ({@link #validateRequest}, {@link #validateResponse},
 * {@link #validateTrailers}) need to know what the section is, which only the connection knows.
 * Every violation makes the message malformed: a stream error of type PROTOCOL_ERROR (§8.1.1).
 */
final class Http2HeaderChecks {

    /** Bits for the pseudo-header fields a section has, so duplicates and mixes are one mask test. */
    static final int METHOD = 1;
    static final int SCHEME = 1 << 1;
    static final int AUTHORITY = 1 << 2;
    static final int PATH = 1 << 3;
    static final int STATUS = 1 << 4;
    static final int PROTOCOL = 1 << 5;

    /** Octets allowed in a regular field name: RFC 9110 tchar without upper-case letters (§8.2.1). */
    private static final boolean[] NAME_OCTET = new boolean[256];

    private static final AsciiString TRAILERS = AsciiString.cached("trailers");
    private static final AsciiString CONNECT = AsciiString.cached("CONNECT");
    // RFC 9113 §8.2.2: fields that only mean something to one HTTP/1.1 connection
    private static final AsciiString CONNECTION = AsciiString.cached("connection");
    private static final AsciiString KEEP_ALIVE = AsciiString.cached("keep-alive");
    private static final AsciiString PROXY_CONNECTION = AsciiString.cached("proxy-connection");
    private static final AsciiString TRANSFER_ENCODING = AsciiString.cached("transfer-encoding");
    private static final AsciiString UPGRADE = AsciiString.cached("upgrade");

    static {
        for (char c = '0'; c <= '9'; c++) {
            NAME_OCTET[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            NAME_OCTET[c] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            NAME_OCTET[c] = true;
        }
    }

    private Http2HeaderChecks() {
    }

    /**
     * The bit of a pseudo-header field name.
     *
     * @param name a name that starts with a colon
     * @return its bit, or 0 if it is not one of the six defined pseudo-header fields
     */
    static int pseudoHeaderBit(AsciiString name) {
        // the static table hands out Http2Headers' own constants, so indexed names match by identity
        if (name == Http2Headers.METHOD) {
            return METHOD;
        } else if (name == Http2Headers.PATH) {
            return PATH;
        } else if (name == Http2Headers.SCHEME) {
            return SCHEME;
        } else if (name == Http2Headers.AUTHORITY) {
            return AUTHORITY;
        } else if (name == Http2Headers.STATUS) {
            return STATUS;
        }
        switch (name.length()) {
            case 5:
                return HpackStrings.sameOctets(name, Http2Headers.PATH) ? PATH : 0;
            case 7:
                return HpackStrings.sameOctets(name, Http2Headers.METHOD) ? METHOD
                        : HpackStrings.sameOctets(name, Http2Headers.SCHEME) ? SCHEME
                        : HpackStrings.sameOctets(name, Http2Headers.STATUS) ? STATUS : 0;
            case 9:
                return HpackStrings.sameOctets(name, Http2Headers.PROTOCOL) ? PROTOCOL : 0;
            case 10:
                return HpackStrings.sameOctets(name, Http2Headers.AUTHORITY) ? AUTHORITY : 0;
            default:
                return 0;
        }
    }

    /**
     * Checks a regular (not pseudo-header) field name.
     *
     * @return what is wrong with it, or {@code null} if nothing is
     */
    static String regularNameProblem(AsciiString name) {
        if (name.isEmpty()) {
            return "empty field name";
        }
        byte[] a = name.array();
        for (int i = name.arrayOffset(), end = i + name.length(); i < end; i++) {
            if (!NAME_OCTET[a[i] & 0xFF]) {
                return AsciiString.isUpperCase(a[i])
                        ? "upper-case field name " + quote(name)
                        : "invalid character 0x" + Integer.toHexString(a[i] & 0xFF) + " in field name " + quote(name);
            }
        }
        return null;
    }

    /**
     * Checks a field value: no NUL, CR or LF, no leading or trailing space or tab (§8.2.1), and the
     * connection-specific fields of §8.2.2 ({@code te} only as {@code trailers}).
     *
     * @return what is wrong with the field, or {@code null} if nothing is
     */
    static String valueProblem(AsciiString name, AsciiString value) {
        int n = value.length();
        if (n > 0) {
            byte[] a = value.array();
            int start = value.arrayOffset();
            if (isSpaceOrTab(a[start]) || isSpaceOrTab(a[start + n - 1])) {
                return "field " + quote(name) + " has a value with leading or trailing white space";
            }
            for (int i = start, end = start + n; i < end; i++) {
                byte b = a[i];
                if (b == 0 || b == '\r' || b == '\n') {
                    return "field " + quote(name) + " has a value with NUL, CR or LF";
                }
            }
        }
        return connectionSpecificProblem(name, value);
    }

    private static String connectionSpecificProblem(AsciiString name, AsciiString value) {
        AsciiString forbidden;
        switch (name.length()) { // one comparison at most for most names, none for the others
            case 2:
                if (name.byteAt(0) == 't' && name.byteAt(1) == 'e') {
                    return HpackStrings.sameOctets(value, TRAILERS) || value.contentEqualsIgnoreCase(TRAILERS) ? null
                            : "field 'te' with a value other than 'trailers': " + quote(value);
                }
                return null;
            case 7:
                forbidden = UPGRADE;
                break;
            case 10:
                forbidden = name.byteAt(0) == 'c' ? CONNECTION : KEEP_ALIVE;
                break;
            case 16:
                forbidden = PROXY_CONNECTION;
                break;
            case 17:
                forbidden = TRANSFER_ENCODING;
                break;
            default:
                return null;
        }
        return HpackStrings.sameOctets(name, forbidden) ? "connection-specific field '" + name + "'" : null;
    }

    /** {@code s} in quotes for a message, cut at 64 characters: a name may be as long as a block. */
    static String quote(CharSequence s) {
        return s.length() <= 64 ? "'" + s + "'" : "'" + s.subSequence(0, 64) + "...' (" + s.length() + " characters)";
    }

    private static boolean isSpaceOrTab(byte b) {
        return b == ' ' || b == '\t';
    }

    /**
     * Checks the pseudo-header fields of a request (§8.3.1): {@code :method}, {@code :scheme} and a
     * non-empty {@code :path} exactly once, no {@code :status}; a {@code CONNECT} (§8.5) has
     * {@code :method} and {@code :authority} only, or with {@code :protocol} (extended CONNECT,
     * RFC 8441) also {@code :scheme} and {@code :path}; {@code :protocol} needs {@code CONNECT}.
     *
     * @throws Http2Exception a stream error PROTOCOL_ERROR naming the problem
     */
    static void validateRequest(int streamId, Http2Headers headers) throws Http2Exception {
        int seen = pseudoHeaders(streamId, headers);
        if ((seen & STATUS) != 0) {
            throw malformed(streamId, "request with ':status'");
        }
        if ((seen & METHOD) == 0) {
            throw malformed(streamId, "request without ':method'");
        }
        boolean connect = AsciiString.contentEquals(headers.method(), CONNECT);
        if (connect && (seen & PROTOCOL) == 0) {
            if (seen != (METHOD | AUTHORITY)) {
                throw malformed(streamId, "CONNECT request must have ':method' and ':authority' only, has "
                        + describe(seen));
            }
            return;
        }
        if ((seen & PROTOCOL) != 0 && !connect) {
            throw malformed(streamId, "':protocol' in a " + quote(headers.method()) + " request, not CONNECT");
        }
        int required = connect ? METHOD | SCHEME | PATH | AUTHORITY : METHOD | SCHEME | PATH;
        if ((seen & required) != required) {
            throw malformed(streamId, "request without " + describe(required & ~seen));
        }
        if (headers.path().length() == 0) {
            throw malformed(streamId, "request with an empty ':path'");
        }
    }

    /**
     * RFC 8441 §4: {@code :protocol} may only be sent to an endpoint that advertised
     * SETTINGS_ENABLE_CONNECT_PROTOCOL = 1; anywhere else the request is malformed (RFC 9113 §8.1.1).
     *
     * @param advertised whether this endpoint sent the setting with the value 1
     * @throws Http2Exception a stream error PROTOCOL_ERROR when the request has {@code :protocol}
     */
    static void checkExtendedConnectAllowed(int streamId, Http2Headers headers, boolean advertised)
            throws Http2Exception {
        if (!advertised && headers.protocol() != null) {
            throw malformed(streamId, "':protocol' without SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 (RFC 8441 §4)");
        }
    }

    /**
     * Checks the pseudo-header fields of a response (§8.3.2): {@code :status} alone, three digits.
     *
     * @throws Http2Exception a stream error PROTOCOL_ERROR naming the problem
     */
    static void validateResponse(int streamId, Http2Headers headers) throws Http2Exception {
        int seen = pseudoHeaders(streamId, headers);
        if ((seen & STATUS) == 0) {
            throw malformed(streamId, "response without ':status'");
        }
        if (seen != STATUS) {
            throw malformed(streamId, "response with request pseudo-header fields " + describe(seen & ~STATUS));
        }
        CharSequence status = headers.status();
        if (status.length() != 3 || !isDigit(status.charAt(0)) || !isDigit(status.charAt(1))
                || !isDigit(status.charAt(2))) {
            throw malformed(streamId, "':status' is not three digits: " + quote(status));
        }
    }

    /**
     * Checks a trailer section (§8.1): it has no pseudo-header field.
     *
     * @throws Http2Exception a stream error PROTOCOL_ERROR naming the field
     */
    static void validateTrailers(int streamId, Http2Headers headers) throws Http2Exception {
        if (headers.size() > 0 && Http2Headers.isPseudoHeader(headers.nameAt(0))) {
            throw malformed(streamId, "pseudo-header field " + quote(headers.nameAt(0)) + " in trailers");
        }
    }

    /** The mask of pseudo-header fields in {@code headers}, rejecting duplicates and unknown ones. */
    private static int pseudoHeaders(int streamId, Http2Headers headers) throws Http2Exception {
        int seen = 0;
        for (int i = 0; i < headers.size() && Http2Headers.isPseudoHeader(headers.nameAt(i)); i++) {
            CharSequence name = headers.nameAt(i);
            int bit = pseudoHeaderBit(AsciiString.of(name));
            if (bit == 0) {
                throw malformed(streamId, "unknown pseudo-header field " + quote(name));
            }
            if ((seen & bit) != 0) {
                throw malformed(streamId, "duplicated pseudo-header field " + quote(name));
            }
            seen |= bit;
        }
        return seen;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The names of the pseudo-header fields in {@code mask}, for messages. */
    static String describe(int mask) {
        StringBuilder sb = new StringBuilder();
        String[] names = {":method", ":scheme", ":authority", ":path", ":status", ":protocol"};
        for (int i = 0; i < names.length; i++) {
            if ((mask & 1 << i) != 0) {
                sb.append(sb.length() == 0 ? "'" : ", '").append(names[i]).append('\'');
            }
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    static Http2Exception malformed(int streamId, String message) {
        return Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "malformed message: " + message);
    }
}
