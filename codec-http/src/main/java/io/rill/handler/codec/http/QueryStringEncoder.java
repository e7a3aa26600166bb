package io.rill.handler.codec.http;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Builds a request target from a path and parameters, percent-encoding each name and value.
 * <pre>{@code
 * QueryStringEncoder e = new QueryStringEncoder("/search");
 * e.addParam("q", "rill & netty");
 * e.toString();   // "/search?q=rill%20%26%20netty"
 * }</pre>
 * Only RFC 3986's unreserved characters ({@code A-Z a-z 0-9 - . _ ~}) are left as they are;
 * every other character is sent as the {@code %XX} escapes of its bytes in the charset (UTF-8 by
 * default), a space as {@code %20}, which both form decoding and RFC 3986 read as a space. The
 * path is used as given and must already be valid.
 */
public class QueryStringEncoder {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final Charset charset;
    private final StringBuilder uri;
    private boolean hasParams;

    /**
     * Starts a request target at {@code path}; parameters are encoded in UTF-8.
     *
     * @param path the path, already valid; may hold a query already
     */
    public QueryStringEncoder(String path) {
        this(path, StandardCharsets.UTF_8);
    }

    /**
     * Starts a request target at {@code path}; parameters are encoded in {@code charset}.
     *
     * @param path    the path, already valid; may hold a query already
     * @param charset the charset of the percent-encoded bytes
     * @throws NullPointerException if an argument is null
     */
    public QueryStringEncoder(String path, Charset charset) {
        if (path == null || charset == null) {
            throw new NullPointerException(path == null ? "path" : "charset");
        }
        this.uri = new StringBuilder(path);
        this.charset = charset;
        this.hasParams = path.indexOf('?') >= 0;
    }

    /**
     * Appends {@code name=value}, or just {@code name} when {@code value} is null.
     *
     * @param name  the parameter name; encoded here
     * @param value the parameter value, encoded here; or null
     * @return this encoder
     */
    public QueryStringEncoder addParam(String name, String value) {
        if (name == null) {
            throw new NullPointerException("name");
        }
        uri.append(hasParams ? '&' : '?');
        hasParams = true;
        encodeComponent(name, charset, uri);
        if (value != null) {
            uri.append('=');
            encodeComponent(value, charset, uri);
        }
        return this;
    }

    /**
     * {@code s} with every character but the unreserved ones percent-encoded in UTF-8.
     *
     * @param s the text to encode
     * @return the encoded text
     */
    public static String encodeComponent(String s) {
        return encodeComponent(s, StandardCharsets.UTF_8, new StringBuilder(s.length() + 8)).toString();
    }

    private static StringBuilder encodeComponent(String s, Charset charset, StringBuilder out) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (!isUnreserved(s.charAt(i))) {
                // Everything from the first reserved character on goes through the charset at once,
                // so surrogate pairs become one 4-byte sequence.
                out.append(s, 0, i);
                for (int j = i; j < n; j++) {
                    char c = s.charAt(j);
                    if (isUnreserved(c)) {
                        out.append(c);
                        continue;
                    }
                    int end = j + 1;
                    if (Character.isHighSurrogate(c) && end < n && Character.isLowSurrogate(s.charAt(end))) {
                        end++;
                    }
                    for (byte b : s.substring(j, end).getBytes(charset)) {
                        out.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
                    }
                    j = end - 1;
                }
                return out;
            }
        }
        return out.append(s);
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    /** The target built so far. */
    @Override
    public String toString() {
        return uri.toString();
    }

    /**
     * The target as a {@link java.net.URI}.
     *
     * @return a new URI
     * @throws IllegalArgumentException if the path given was not valid for a URI
     */
    public java.net.URI toUri() {
        return java.net.URI.create(toString());
    }
}
