package io.rill.handler.codec.http.cookie;

/**
 * The character rules of RFC 6265 §4.1.1 for cookie names, values and attribute values, strict
 * and lax. Lax still refuses what could split a header or a cookie list: control characters
 * (CR, LF, NUL...) and {@code ;}, in every mode.
 */
final class CookieRules {

    private CookieRules() {
    }

    /** token (RFC 9110 §5.6.2). */
    static boolean isTokenChar(char c) {
        return c > ' ' && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    /** cookie-octet: US-ASCII but CTLs, whitespace, DQUOTE, comma, semicolon and backslash. */
    static boolean isCookieOctet(char c) {
        return c == 0x21 || (c >= 0x23 && c <= 0x2b) || (c >= 0x2d && c <= 0x3a) || (c >= 0x3c && c <= 0x5b)
                || (c >= 0x5d && c <= 0x7e);
    }

    /** What even lax mode refuses: controls (but HTAB), DEL and {@code ;}. */
    static boolean isUnsafe(char c) {
        return (c < ' ' && c != '\t') || c == 0x7f || c == ';';
    }

    /** Index of the first character of {@code name} not allowed in a cookie name, or -1. */
    static int invalidNameAt(String name, boolean strict) {
        if (name.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (strict ? !isTokenChar(c) : isUnsafe(c) || c == '=' || c == ' ' || c == ',') {
                return i;
            }
        }
        return -1;
    }

    /** Index of the first character of {@code value} (unquoted) not allowed in a cookie value, or -1. */
    static int invalidValueAt(String value, boolean strict) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (strict ? !isCookieOctet(c) : isUnsafe(c) || c == '"') {
                return i;
            }
        }
        return -1;
    }

    /** Index of the first character of an attribute value ({@code Path}, {@code Domain}) not allowed, or -1. */
    static int invalidAttributeAt(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (isUnsafe(value.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** Throws if {@code what} has an invalid character at {@code at} (not -1). */
    static void check(int at, String kind, String what) {
        if (at >= 0) {
            String c = at < what.length() ? String.format("U+%04X", (int) what.charAt(at)) : "nothing";
            throw new IllegalArgumentException("cookie " + kind + " with " + c + " at index " + at + ": \""
                    + printable(what) + '"');
        }
    }

    /** {@code s} with control characters shown as {@code \xNN}, so a message never splits a log line. */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 200) + 8);
        for (int i = 0; i < s.length() && i < 200; i++) {
            char c = s.charAt(i);
            if (c < ' ' || c == 0x7f) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return s.length() > 200 ? sb.append("...").toString() : sb.toString();
    }

    /**
     * A {@code name=value} pair (spaces and tabs around either dropped, one pair of quotes around
     * the value remembered as {@link Cookie#wrap()}), or null if it has no {@code =}, an empty name,
     * or a character the mode does not allow.
     */
    static DefaultCookie parsePair(String pair, boolean strict) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
            return null;
        }
        String name = trimOws(pair.substring(0, eq));
        String raw = trimOws(pair.substring(eq + 1));
        String value = unquote(raw);
        if (invalidNameAt(name, strict) >= 0 || invalidValueAt(value, strict) >= 0) {
            return null;
        }
        DefaultCookie cookie = new DefaultCookie(name, value);
        cookie.setWrap(value.length() != raw.length());
        return cookie;
    }

    /** {@code s} without leading and trailing spaces and tabs (only those: a control character must stay to be seen). */
    static String trimOws(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && (s.charAt(from) == ' ' || s.charAt(from) == '\t')) {
            from++;
        }
        while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) {
            to--;
        }
        return s.substring(from, to);
    }

    /** {@code value} without one pair of surrounding double quotes, if it has them. */
    static String unquote(String value) {
        return value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"'
                ? value.substring(1, value.length() - 1) : value;
    }
}
