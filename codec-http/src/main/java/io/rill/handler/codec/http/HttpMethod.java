package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * A request method (RFC 9110 §9). The nine registered methods are constants, and looking one of
 * them up, from text or straight from the bytes of a request line, is a switch on length and first
 * letter plus one comparison: no map, no allocation. Other methods are allowed if they are tokens.
 */
public final class HttpMethod implements Comparable<HttpMethod> {

    /** {@code GET}: transfer a representation of the target (RFC 9110 §9.3.1). */
    public static final HttpMethod GET = new HttpMethod("GET");
    /** {@code HEAD}: like GET, without the body in the response (RFC 9110 §9.3.2). */
    public static final HttpMethod HEAD = new HttpMethod("HEAD");
    /** {@code POST}: process the enclosed content (RFC 9110 §9.3.3). */
    public static final HttpMethod POST = new HttpMethod("POST");
    /** {@code PUT}: replace the target's state with the enclosed content (RFC 9110 §9.3.4). */
    public static final HttpMethod PUT = new HttpMethod("PUT");
    /** {@code DELETE}: remove the target (RFC 9110 §9.3.5). */
    public static final HttpMethod DELETE = new HttpMethod("DELETE");
    /** {@code CONNECT}: open a tunnel to the target's host and port (RFC 9110 §9.3.6). */
    public static final HttpMethod CONNECT = new HttpMethod("CONNECT");
    /** {@code OPTIONS}: describe the communication options for the target (RFC 9110 §9.3.7). */
    public static final HttpMethod OPTIONS = new HttpMethod("OPTIONS");
    /** {@code TRACE}: echo the request back (RFC 9110 §9.3.8). */
    public static final HttpMethod TRACE = new HttpMethod("TRACE");
    /** {@code PATCH}: apply partial changes to the target (RFC 5789). */
    public static final HttpMethod PATCH = new HttpMethod("PATCH");

    private final AsciiString name;

    private HttpMethod(String name) {
        this.name = AsciiString.cached(name);
    }

    /**
     * The method called {@code name}: a constant for the registered ones (case-sensitive, as RFC
     * 9110 §9.1 says), a new method for any other token.
     *
     * @param name the method's name
     * @return the constant or a new method
     * @throws IllegalArgumentException quoting the name, if it is empty or not a token
     */
    public static HttpMethod valueOf(CharSequence name) {
        HttpMethod known = known(name);
        if (known != null) {
            return known;
        }
        if (name.length() == 0 || HttpHeaderValidation.firstNonTokenChar(name) >= 0) {
            throw new IllegalArgumentException("not a method (a token): \"" + name + '"');
        }
        return new HttpMethod(name.toString());
    }

    private static HttpMethod known(CharSequence s) {
        HttpMethod candidate = candidate(s.length(), s.length() == 0 ? 0 : s.charAt(0), s.length() > 1 ? s.charAt(1) : 0);
        return candidate != null && AsciiString.contentEquals(candidate.name, s) ? candidate : null;
    }

    /** A registered method from the bytes of a request line, or null if they name none. */
    static HttpMethod known(ByteBuf buf, int index, int length) {
        if (length < 3) {
            return null;
        }
        HttpMethod candidate = candidate(length, (char) buf.getByte(index), (char) buf.getByte(index + 1));
        if (candidate == null) {
            return null;
        }
        byte[] expected = candidate.name.array();
        for (int i = 0; i < length; i++) {
            if (buf.getByte(index + i) != expected[candidate.name.arrayOffset() + i]) {
                return null;
            }
        }
        return candidate;
    }

    /** The only registered method that could have this length and first two characters. */
    private static HttpMethod candidate(int length, int first, int second) {
        switch (length) {
            case 3:
                return first == 'G' ? GET : first == 'P' ? PUT : null;
            case 4:
                return first == 'H' ? HEAD : first == 'P' ? POST : null;
            case 5:
                return first == 'T' ? TRACE : first == 'P' && second == 'A' ? PATCH : null;
            case 6:
                return first == 'D' ? DELETE : null;
            case 7:
                return first == 'C' ? CONNECT : first == 'O' ? OPTIONS : null;
            default:
                return null;
        }
    }

    /**
     * The method's name, as sent on the wire.
     *
     * @return the name, as the bytes of an {@code AsciiString}
     */
    public AsciiString asciiName() {
        return name;
    }

    /**
     * The method's name.
     *
     * @return the name, e.g. {@code "GET"}
     */
    public String name() {
        return name.toString();
    }

    void encode(ByteBuf out) {
        out.writeBytes(name.array(), name.arrayOffset(), name.length());
    }

    @Override
    public int compareTo(HttpMethod o) {
        return name.compareTo(o.name);
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof HttpMethod m && m.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name.toString();
    }
}
