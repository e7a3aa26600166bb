package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpHeaderValidation.describe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteProcessor;
import io.rill.util.AsciiString;

/**
 * The line grammar of an HTTP/1.1 head (RFC 9112 §2-5), strictly: every line ends in CRLF, the
 * start line has exactly single spaces, field names are tokens followed at once by a colon, field
 * values hold no control characters but HTAB, and obsolete line folding is refused. One method per
 * grammar element; each failure is an {@link HttpDecoderException} that quotes the input.
 *
 * <p>A parser belongs to one connection's decoder. It remembers how far it has looked for the line
 * end, so input that arrives a byte at a time is scanned once, not once per byte; and it remembers
 * the request target and the field names and values of the previous head by position, because a
 * keep-alive client usually sends the same ones again: the same bytes give back the same immutable
 * objects instead of new ones.
 */
final class HttpHeadParser {

    private static final byte CR = '\r';

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** Continues over the visible ASCII of a request target (RFC 3986 characters and more, never space or controls). */
    private static final ByteProcessor TARGET_CHAR = b -> b > 0x20 && b < 0x7f;
    private static final ByteProcessor TOKEN_CHAR = b -> HttpHeaderValidation.isTokenChar(b & 0xff);
    private static final ByteProcessor FIELD_VALUE_CHAR = b -> HttpHeaderValidation.isFieldValueChar(b & 0xff);

    /** Fields remembered per position; later ones are always new objects. */
    private static final int REMEMBERED_FIELDS = 16;

    /** Bytes of the current line already searched for LF without finding one. */
    private int scanned;
    /** Position of the next field line in the current head (and its trailers). */
    private int fieldIndex;
    private final AsciiString[] lastNames = new AsciiString[REMEMBERED_FIELDS];
    private final AsciiString[] lastValues = new AsciiString[REMEMBERED_FIELDS];
    private String lastTarget = "";
    private RequestLine lastLine = new RequestLine(HttpMethod.GET, lastTarget, HttpVersion.HTTP_1_1);

    /**
     * Length of the next line's content (CRLF excluded) at {@code in}'s reader index, or -1 if it
     * is not complete yet. The bytes stay unread.
     *
     * @param limit the longest content allowed
     * @throws TooLongHttpLineException if no line end comes within {@code limit}
     */
    int nextLine(ByteBuf in, int limit, HttpResponseStatus tooLongStatus, String what) {
        int start = in.readerIndex();
        int searchable = Math.min(in.readableBytes(), limit + 2);
        int lf = scanned < searchable ? find(in, start + scanned, start + searchable, ByteProcessor.FIND_LF) : -1;
        if (lf < 0) {
            scanned = searchable;
            if (searchable == limit + 2) {
                throw new TooLongHttpLineException(tooLongStatus, what + " longer than " + limit + " bytes: \""
                        + quote(in, start, Math.min(64, searchable)) + '"');
            }
            return -1;
        }
        scanned = 0;
        int length = lf - start;
        if (length == 0 || in.getByte(lf - 1) != CR) {
            throw new HttpDecoderException(HttpResponseStatus.BAD_REQUEST, what + " ends in a bare LF, not CRLF: \""
                    + quote(in, start, Math.min(length + 1, 64)) + '"');
        }
        if (length - 1 > limit) {
            throw new TooLongHttpLineException(tooLongStatus, what + " longer than " + limit + " bytes");
        }
        return length - 1;
    }

    /** Forgets a partial scan, when the decoder starts over. */
    void reset() {
        scanned = 0;
        fieldIndex = 0;
    }

    // ------------------------------------------------------------------ start lines

    /** {@code method SP request-target SP HTTP-version}: the request line of {@code length} bytes at {@code at}. */
    HttpRequest parseRequestLine(ByteBuf in, int at, int length) {
        int end = at + length;
        int sp1 = find(in, at, end, ByteProcessor.FIND_ASCII_SPACE);
        int sp2 = sp1 < 0 ? -1 : find(in, sp1 + 1, end, ByteProcessor.FIND_ASCII_SPACE);
        if (sp2 < 0 || find(in, sp2 + 1, end, ByteProcessor.FIND_ASCII_SPACE) >= 0) {
            throw bad("request line is not 'method SP target SP version'", in, at, length);
        }
        HttpMethod method = parseMethod(in, at, sp1 - at);
        String target = parseTarget(in, sp1 + 1, sp2 - sp1 - 1, at, length);
        if (!isTargetForm(method, target)) {
            throw bad("request target in none of the forms origin, absolute, authority (CONNECT) or asterisk (OPTIONS)",
                    in, at, length);
        }
        HttpVersion version = parseVersion(in, sp2 + 1, end - sp2 - 1, at, length);
        lastLine = lastLine.reuseFor(method, target, version);
        return new DefaultHttpRequest(lastLine, new HttpHeaders(false));
    }

    private static HttpMethod parseMethod(ByteBuf in, int at, int length) {
        HttpMethod known = HttpMethod.known(in, at, length);
        if (known != null) {
            return known;
        }
        if (length == 0) {
            throw bad("empty method", in, at, 0);
        }
        for (int i = at; i < at + length; i++) {
            if (!HttpHeaderValidation.isTokenChar(in.getByte(i) & 0xff)) {
                throw bad("method with " + describe(in.getByte(i) & 0xff), in, at, length);
            }
        }
        return HttpMethod.valueOf(in.toString(at, length, java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** Visible ASCII only: URIs are ASCII (RFC 3986), and anything else here is an attack or a bug. */
    private String parseTarget(ByteBuf in, int at, int length, int lineAt, int lineLength) {
        if (length == 0) {
            throw bad("empty request target", in, lineAt, lineLength);
        }
        int badAt = find(in, at, at + length, TARGET_CHAR);
        if (badAt >= 0) {
            throw bad("request target with " + describe(in.getByte(badAt) & 0xff), in, lineAt, lineLength);
        }
        if (!sameBytes(in, at, length, lastTarget)) {
            lastTarget = in.toString(at, length, java.nio.charset.StandardCharsets.US_ASCII);
        }
        return lastTarget;
    }

    /**
     * RFC 9112 §3.2: a target is {@code /path?query}, {@code scheme:...}, {@code host:port} for CONNECT
     * or {@code *} for OPTIONS. Anything else ({@code 'x}, {@code h/ttp://a}) is read differently by
     * different parsers, so it is refused rather than guessed at.
     */
    private static boolean isTargetForm(HttpMethod method, String target) {
        char first = target.charAt(0);
        if (first == '/' || HttpMethod.CONNECT.equals(method)) {
            return true; // the authority form is left to whoever serves CONNECT
        }
        if (target.equals("*")) {
            return HttpMethod.OPTIONS.equals(method);
        }
        if (!isAsciiLetter(first)) {
            return false;
        }
        for (int i = 1; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == ':') {
                return isUriText(target, i + 1); // scheme ":" (RFC 3986 §3.1)
            }
            if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') {
                return false;
            }
        }
        return false;
    }

    /**
     * No visible ASCII that RFC 3986 §2 leaves out of URIs ({@code " < > \ ^ ` { | }}) in an absolute
     * form, whose authority a proxy routes by: {@code http://a\@b/} is read as two different hosts by
     * different URL parsers. Origin-form paths keep them, as llhttp and h11 do.
     */
    private static boolean isUriText(String target, int from) {
        for (int i = from; i < target.length(); i++) {
            if ("\"<>\\^`{|}".indexOf(target.charAt(i)) >= 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static HttpVersion parseVersion(ByteBuf in, int at, int length, int lineAt, int lineLength) {
        HttpVersion version = HttpVersion.parse(in, at, length);
        if (version == null) {
            throw bad("not an HTTP version", in, lineAt, lineLength);
        }
        if (version.majorVersion() != 1) {
            throw new HttpDecoderException(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED,
                    "HTTP version " + version + " is not supported: \"" + quote(in, lineAt, lineLength) + '"');
        }
        return version;
    }

    /** {@code HTTP-version SP status-code SP [reason-phrase]}; the SP before an empty reason may be missing. */
    static HttpResponse parseStatusLine(ByteBuf in, int at, int length) {
        if (length < 12 || in.getByte(at + 8) != ' ' || length > 12 && in.getByte(at + 12) != ' ') {
            throw bad("status line is not 'version SP code SP reason'", in, at, length);
        }
        HttpVersion version = parseVersion(in, at, 8, at, length);
        int code = 0;
        for (int i = at + 9; i < at + 12; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9) {
                throw bad("status code is not three digits", in, at, length);
            }
            code = code * 10 + d;
        }
        if (code < 100 || code > 599) {
            // RFC 9110 §15: values outside 100..599 are invalid; HttpResponseStatus refuses them
            // too, and its IllegalArgumentException must not escape the decoder.
            throw bad("status code outside 100..599", in, at, length);
        }
        int reasonAt = at + 13;
        int reasonLength = Math.max(0, length - 13);
        for (int i = reasonAt; i < reasonAt + reasonLength; i++) {
            if (!HttpHeaderValidation.isFieldValueChar(in.getByte(i) & 0xff)) {
                throw bad("reason phrase with " + describe(in.getByte(i) & 0xff), in, at, length);
            }
        }
        HttpResponseStatus status = reasonLength == 0 ? HttpResponseStatus.valueOf(code)
                : HttpResponseStatus.valueOf(code, in.toString(reasonAt, reasonLength, java.nio.charset.StandardCharsets.ISO_8859_1));
        return new DefaultHttpResponse(version, status, new HttpHeaders(false));
    }

    // ------------------------------------------------------------------ field lines

    /**
     * {@code field-name ":" OWS field-value OWS}: adds the field line of {@code length} bytes at
     * {@code at} to {@code headers}.
     */
    void parseFieldLine(ByteBuf in, int at, int length, HttpHeaders headers) {
        int first = in.getByte(at) & 0xff;
        if (first == ' ' || first == '\t') {
            throw bad("obsolete line folding (a field line starting with whitespace)", in, at, length);
        }
        int end = at + length;
        int colon = find(in, at, end, TOKEN_CHAR);
        if (colon < 0) {
            throw bad("field line without a colon", in, at, length);
        }
        int stop = in.getByte(colon) & 0xff;
        if (stop != ':') {
            throw bad(stop == ' ' || stop == '\t' ? "whitespace between field name and colon"
                    : "field name with " + describe(stop), in, at, length);
        }
        if (colon == at) {
            throw bad("empty field name", in, at, length);
        }
        int valueStart = colon + 1;
        int valueEnd = end;
        while (valueStart < valueEnd && isOws(in.getByte(valueStart))) {
            valueStart++;
        }
        while (valueEnd > valueStart && isOws(in.getByte(valueEnd - 1))) {
            valueEnd--;
        }
        int badAt = find(in, valueStart, valueEnd, FIELD_VALUE_CHAR);
        if (badAt >= 0) {
            throw bad("field value with " + describe(in.getByte(badAt) & 0xff), in, at, length);
        }
        int position = fieldIndex++;
        AsciiString name = HttpHeaderNames.lookup(in, at, colon - at);
        if (name == null) {
            name = remembered(lastNames, position, in, at, colon - at);
        }
        headers.addValidated(name, remembered(lastValues, position, in, valueStart, valueEnd - valueStart));
    }

    /** The text of {@code length} bytes at {@code at}: the one seen at this position last time if the bytes match. */
    private static AsciiString remembered(AsciiString[] last, int position, ByteBuf in, int at, int length) {
        if (length == 0) {
            return AsciiString.EMPTY;
        }
        if (position >= last.length) {
            return ascii(in, at, length);
        }
        AsciiString previous = last[position];
        if (previous != null && sameBytes(in, at, length, previous)) {
            return previous;
        }
        return last[position] = ascii(in, at, length);
    }

    private static boolean sameBytes(ByteBuf in, int at, int length, CharSequence text) {
        if (text.length() != length) {
            return false;
        }
        int i = 0;
        if (text instanceof AsciiString ascii) {
            // Eight bytes a compare: the common case, a value seen on the previous request.
            byte[] array = ascii.array();
            int offset = ascii.arrayOffset();
            for (; i + 8 <= length; i += 8) {
                if (in.getLong(at + i) != (long) LONG.get(array, offset + i)) {
                    return false;
                }
            }
        }
        for (; i < length; i++) {
            if (in.getByte(at + i) != (byte) text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Index of the first byte in [from, to) where {@code p} stops, or -1; shared processors allocate nothing. */
    static int find(ByteBuf in, int from, int to, ByteProcessor p) {
        return from >= to ? -1 : in.forEachByte(from, to - from, p);
    }

    private static boolean isOws(byte b) {
        return b == ' ' || b == '\t';
    }

    private static AsciiString ascii(ByteBuf in, int at, int length) {
        byte[] bytes = new byte[length];
        in.getBytes(at, bytes);
        return new AsciiString(bytes, false);
    }

    // ------------------------------------------------------------------ errors

    static HttpDecoderException bad(String why, ByteBuf in, int at, int length) {
        return new HttpDecoderException(HttpResponseStatus.BAD_REQUEST, why + ": \"" + quote(in, at, length) + '"');
    }

    /** Up to 64 bytes at {@code at}, control characters escaped. */
    static String quote(ByteBuf in, int at, int length) {
        StringBuilder sb = new StringBuilder();
        int n = Math.min(length, 64);
        for (int i = at; i < at + n; i++) {
            int b = in.getByte(i) & 0xff;
            if (b == '\r') {
                sb.append("\\r");
            } else if (b == '\n') {
                sb.append("\\n");
            } else if (b < 0x20 || b >= 0x7f) {
                sb.append(String.format("\\x%02x", b));
            } else {
                sb.append((char) b);
            }
        }
        return length > n ? sb.append("...").toString() : sb.toString();
    }
}
