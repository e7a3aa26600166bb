package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * An HTTP version, {@code HTTP/major.minor} (RFC 9112 §2.3: the name is case-sensitive and each
 * number is one digit). Rill speaks HTTP/1.0 and HTTP/1.1; other versions parse, so that a server
 * can answer them with 505.
 */
public final class HttpVersion implements Comparable<HttpVersion> {

    /** {@code HTTP/1.0}: closes the connection after each response unless asked to keep it. */
    public static final HttpVersion HTTP_1_0 = new HttpVersion(1, 0);
    /** {@code HTTP/1.1} (RFC 9112): keeps the connection open unless asked to close it. */
    public static final HttpVersion HTTP_1_1 = new HttpVersion(1, 1);

    private final int major;
    private final int minor;
    private final AsciiString text;

    private HttpVersion(int major, int minor) {
        this.major = major;
        this.minor = minor;
        this.text = AsciiString.cached("HTTP/" + major + '.' + minor);
    }

    /**
     * The version named by {@code text}, exactly {@code HTTP/d.d}.
     *
     * @throws IllegalArgumentException quoting the text, if it is not a version
     * @param text the version text
     * @return the constant for 1.0 and 1.1, or a new version
     */
    public static HttpVersion valueOf(CharSequence text) {
        HttpVersion v = parse(text);
        if (v == null) {
            throw new IllegalArgumentException("not an HTTP version: \"" + text + '"');
        }
        return v;
    }

    /** {@link #valueOf} for the decoder: null instead of an exception. */
    static HttpVersion parse(CharSequence s) {
        if (s.length() != 8 || s.charAt(0) != 'H' || s.charAt(1) != 'T' || s.charAt(2) != 'T' || s.charAt(3) != 'P'
                || s.charAt(4) != '/' || s.charAt(6) != '.' || !isDigit(s.charAt(5)) || !isDigit(s.charAt(7))) {
            return null;
        }
        return of(s.charAt(5) - '0', s.charAt(7) - '0');
    }

    /** {@link #parse(CharSequence)} straight from {@code length} bytes of {@code buf} at {@code index}. */
    static HttpVersion parse(ByteBuf buf, int index, int length) {
        if (length != 8 || buf.getInt(index) != 0x48545450 /* HTTP */ || buf.getByte(index + 4) != '/'
                || buf.getByte(index + 6) != '.') {
            return null;
        }
        int major = buf.getByte(index + 5) - '0';
        int minor = buf.getByte(index + 7) - '0';
        return major >= 0 && major <= 9 && minor >= 0 && minor <= 9 ? of(major, minor) : null;
    }

    private static HttpVersion of(int major, int minor) {
        if (major == 1) {
            if (minor == 1) {
                return HTTP_1_1;
            }
            if (minor == 0) {
                return HTTP_1_0;
            }
        }
        return new HttpVersion(major, minor);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * The major version, the digit before the dot.
     *
     * @return the major version
     */
    public int majorVersion() {
        return major;
    }

    /**
     * The minor version, the digit after the dot.
     *
     * @return the minor version
     */
    public int minorVersion() {
        return minor;
    }

    /**
     * The version as sent on the wire, e.g. {@code HTTP/1.1}.
     *
     * @return the version text
     */
    public AsciiString text() {
        return text;
    }

    /**
     * HTTP/1.1 and later keep connections open unless told otherwise; HTTP/1.0 closes them.
     *
     * @return true for HTTP/1.1 and later
     */
    public boolean isKeepAliveDefault() {
        return major > 1 || major == 1 && minor >= 1;
    }

    void encode(ByteBuf out) {
        out.writeBytes(text.array(), text.arrayOffset(), text.length());
    }

    @Override
    public int compareTo(HttpVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HttpVersion v && v.major == major && v.minor == minor;
    }

    @Override
    public int hashCode() {
        return major * 31 + minor;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
