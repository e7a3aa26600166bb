package io.rill.handler.codec.http;

import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits a request target into its path and its query parameters, percent-decoded.
 * <pre>{@code
 * QueryStringDecoder d = new QueryStringDecoder("/hello%20world?recipient=w%C3%B6rld&x=1&x=2");
 * d.path();                          // "/hello world"
 * d.parameters().get("recipient");   // ["wörld"]
 * d.parameters().get("x");           // ["1", "2"]
 * }</pre>
 *
 * <p>The query follows the {@code application/x-www-form-urlencoded} rules (WHATWG URL §5.1):
 * pairs separated by {@code &}, name and value by the first {@code =}, {@code +} is a space, and
 * {@code %XX} escapes are bytes of the charset (UTF-8 by default). In the path, {@code +} stays
 * a plus (RFC 3986 §3.3). A fragment ({@code #...}) is dropped. Escapes that are cut short or not
 * hexadecimal fail with an {@link IllegalArgumentException} that quotes the input, and so does a
 * query of more than {@code maxParams} parameters (default {@value #DEFAULT_MAX_PARAMS}).
 *
 * <p>Decoding happens when a part is first asked for; the object is not thread-safe.
 */
public class QueryStringDecoder {

    /** Default most parameters a query may have. */
    public static final int DEFAULT_MAX_PARAMS = 1024;

    private final String uri;
    private final Charset charset;
    private final int maxParams;
    /** Index of '?' ending the path; uri.length() if none; 0 if the whole input is a query. */
    private final int pathEnd;
    /** Index where the query ends (the fragment's '#' or the end). */
    private final int queryEnd;
    private String path;
    private Map<String, List<String>> params;

    /**
     * A request target: path, then an optional query.
     *
     * @param uri the request target, e.g. {@code /search?q=rill}
     * @throws NullPointerException if {@code uri} is null
     */
    public QueryStringDecoder(String uri) {
        this(uri, StandardCharsets.UTF_8, true, DEFAULT_MAX_PARAMS);
    }

    /**
     * A request target, or a query string alone.
     *
     * @param uri     the request target, or a query string
     * @param hasPath false if {@code uri} is only a query string (as a form body is)
     */
    public QueryStringDecoder(String uri, boolean hasPath) {
        this(uri, StandardCharsets.UTF_8, hasPath, DEFAULT_MAX_PARAMS);
    }

    /**
     * A request target or query string decoded in {@code charset}, with a bound on its parameters.
     *
     * @param uri       the request target, or a query string
     * @param charset   the charset of the {@code %XX} escapes
     * @param hasPath   false if {@code uri} is only a query string (as a form body is)
     * @param maxParams the most parameters {@link #parameters()} accepts; positive
     * @throws NullPointerException if {@code uri} or {@code charset} is null
     * @throws IllegalArgumentException if {@code maxParams} is not positive
     */
    public QueryStringDecoder(String uri, Charset charset, boolean hasPath, int maxParams) {
        if (uri == null || charset == null) {
            throw new NullPointerException(uri == null ? "uri" : "charset");
        }
        if (maxParams <= 0) {
            throw new IllegalArgumentException("maxParams: " + maxParams + " (expected: > 0)");
        }
        this.uri = uri;
        this.charset = charset;
        this.maxParams = maxParams;
        int hash = uri.indexOf('#');
        this.queryEnd = hash < 0 ? uri.length() : hash;
        if (hasPath) {
            int q = uri.indexOf('?');
            this.pathEnd = q < 0 || q > queryEnd ? queryEnd : q;
        } else {
            this.pathEnd = 0;
        }
    }

    /**
     * The path ({@code /} if none) and query of {@code uri}; its scheme, authority and fragment are not a
     * request target's.
     *
     * @param uri an absolute or relative URI
     */
    public QueryStringDecoder(URI uri) {
        this((uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
    }

    /**
     * The input as given.
     *
     * @return the string given to the constructor
     */
    public String uri() {
        return uri;
    }

    /**
     * The decoded path ({@code +} kept); empty when constructed without a path.
     *
     * @return the decoded path
     * @throws IllegalArgumentException if the path holds a malformed escape
     */
    public String path() {
        if (path == null) {
            path = decode(uri, 0, pathEnd, charset, false);
        }
        return path;
    }

    /**
     * The path as sent, escapes and all.
     *
     * @return the raw path
     */
    public String rawPath() {
        return uri.substring(0, pathEnd);
    }

    /**
     * The query as sent (without the '?' and the fragment), or empty.
     *
     * @return the raw query
     */
    public String rawQuery() {
        int start = pathEnd < queryEnd && uri.charAt(pathEnd) == '?' ? pathEnd + 1 : pathEnd;
        return uri.substring(Math.min(start, queryEnd), queryEnd);
    }

    /**
     * Each parameter name with its values in order of appearance; names in order of first
     * appearance. A name without {@code =} has the empty value. Unmodifiable.
     *
     * @return the parameters
     * @throws IllegalArgumentException if the query holds a malformed escape or more than {@code maxParams}
     *                                  parameters
     */
    public Map<String, List<String>> parameters() {
        if (params == null) {
            params = parse(rawQuery());
        }
        return params;
    }

    private Map<String, List<String>> parse(String query) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        int count = 0;
        int start = 0;
        int n = query.length();
        while (start <= n) {
            int amp = query.indexOf('&', start);
            int end = amp < 0 ? n : amp;
            if (end > start) {
                if (++count > maxParams) {
                    throw new IllegalArgumentException("more than " + maxParams + " parameters in query \""
                            + abbreviate(query) + '"');
                }
                int eq = query.indexOf('=', start);
                int nameEnd = eq < 0 || eq > end ? end : eq;
                String name = decode(query, start, nameEnd, charset, true);
                String value = nameEnd == end ? "" : decode(query, nameEnd + 1, end, charset, true);
                map.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            }
            start = end + 1;
        }
        map.replaceAll((k, v) -> Collections.unmodifiableList(v));
        return Collections.unmodifiableMap(map);
    }

    /**
     * Decodes a form component: {@code +} is a space, {@code %XX} a byte of UTF-8.
     *
     * @param s the encoded component
     * @return the decoded text
     * @throws IllegalArgumentException if {@code s} holds a malformed escape
     */
    public static String decodeComponent(String s) {
        return decodeComponent(s, StandardCharsets.UTF_8);
    }

    /**
     * Decodes a form component: {@code +} is a space, {@code %XX} a byte of {@code charset}.
     *
     * @param s       the encoded component
     * @param charset the charset of the escaped bytes
     * @return the decoded text
     * @throws IllegalArgumentException if {@code s} holds a malformed escape
     */
    public static String decodeComponent(String s, Charset charset) {
        return decode(s, 0, s.length(), charset, true);
    }

    /**
     * Percent-decodes {@code s[from, to)}. Escaped bytes are gathered and turned into characters
     * together, so multi-byte characters survive; plain characters are copied as they are.
     */
    static String decode(String s, int from, int to, Charset charset, boolean plusIsSpace) {
        int firstEscape = -1;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%' || (c == '+' && plusIsSpace)) {
                firstEscape = i;
                break;
            }
        }
        if (firstEscape < 0) {
            return s.substring(from, to);
        }
        StringBuilder out = new StringBuilder(to - from);
        out.append(s, from, firstEscape);
        byte[] bytes = null;
        for (int i = firstEscape; i < to; ) {
            char c = s.charAt(i);
            if (c == '%') {
                if (bytes == null) {
                    bytes = new byte[(to - i) / 3];
                }
                int n = 0;
                while (i < to && s.charAt(i) == '%') {
                    bytes[n++] = (byte) escapedByte(s, i, to);
                    i += 3;
                }
                out.append(new String(bytes, 0, n, charset));
            } else {
                out.append(c == '+' && plusIsSpace ? ' ' : c);
                i++;
            }
        }
        return out.toString();
    }

    private static int escapedByte(String s, int at, int to) {
        if (at + 2 >= to) {
            throw new IllegalArgumentException("unterminated escape at index " + at + " of \"" + abbreviate(s) + '"');
        }
        int hi = Character.digit(s.charAt(at + 1), 16);
        int lo = Character.digit(s.charAt(at + 2), 16);
        if (hi < 0 || lo < 0) {
            throw new IllegalArgumentException("invalid escape \"" + s.substring(at, at + 3) + "\" at index " + at
                    + " of \"" + abbreviate(s) + '"');
        }
        return hi << 4 | lo;
    }

    /** Long inputs are quoted by their start only: an exception message is not a place for 1 MB. */
    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    @Override
    public String toString() {
        return uri;
    }
}
