package io.rill.handler.codec.http;

/**
 * The character rules of RFC 9110 for header names (tokens, §5.6.2) and field values (§5.5),
 * shared by the headers, the decoder and the method parser. One 256-entry table answers each.
 */
public final class HttpHeaderValidation {

    /** tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA. */
    private static final boolean[] TOKEN = new boolean[256];
    /** field-vchar (VCHAR / obs-text), SP and HTAB: what a field value may contain. */
    private static final boolean[] FIELD_VALUE = new boolean[256];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TOKEN[c] = true;
        }
        for (int c = 0x21; c < 256; c++) {
            FIELD_VALUE[c] = c != 0x7f;
        }
        FIELD_VALUE[' '] = true;
        FIELD_VALUE['\t'] = true;
    }

    private HttpHeaderValidation() {
    }

    /**
     * Whether byte (or char below 256) {@code c} is a token character.
     *
     * @param c the character
     * @return true for the tchar of RFC 9110 §5.6.2
     */
    public static boolean isTokenChar(int c) {
        return c >= 0 && c < 256 && TOKEN[c];
    }

    /**
     * Whether {@code c} may appear in a field value (no CR, LF, NUL or other control but HTAB).
     *
     * @param c the character
     * @return true if it is allowed in a field value
     */
    public static boolean isFieldValueChar(int c) {
        return c >= 0 && c < 256 && FIELD_VALUE[c];
    }

    /**
     * Index of the first character of {@code name} that is not a token character, or -1.
     *
     * @param name a header name
     * @return the index, or -1 if the name is a token (an empty name returns -1 too, so check its length)
     */
    public static int firstNonTokenChar(CharSequence name) {
        for (int i = 0, n = name.length(); i < n; i++) {
            if (!isTokenChar(name.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Index of the first character of {@code value} that a field value may not contain, or -1.
     *
     * @param value a header value
     * @return the index, or -1 if the value is valid
     */
    public static int firstInvalidValueChar(CharSequence value) {
        for (int i = 0, n = value.length(); i < n; i++) {
            if (!isFieldValueChar(value.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** Throws quoting the name if it is empty or not a token. */
    static void validateName(CharSequence name) {
        if (name.length() == 0) {
            throw new IllegalArgumentException("empty header name");
        }
        int bad = firstNonTokenChar(name);
        if (bad >= 0) {
            throw new IllegalArgumentException("header name with a character not allowed in a token, "
                    + describe(name.charAt(bad)) + " at " + bad + ": \"" + printable(name) + '"');
        }
    }

    /** Throws quoting the value if it holds CR, LF, NUL or another control character. */
    static void validateValue(CharSequence name, CharSequence value) {
        int bad = firstInvalidValueChar(value);
        if (bad >= 0) {
            throw new IllegalArgumentException("value of header '" + printable(name) + "' with "
                    + describe(value.charAt(bad)) + " at " + bad + ": \"" + printable(value) + '"');
        }
    }

    static String describe(int c) {
        return c < 0x20 || c == 0x7f || c > 0xff ? String.format("character 0x%02x", c) : "'" + (char) c + "'";
    }

    /** {@code text} with control characters escaped and cut at 64 characters, for messages. */
    static String printable(CharSequence text) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = Math.min(text.length(), 64); i < n; i++) {
            char c = text.charAt(i);
            if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return text.length() > 64 ? sb.append("...").toString() : sb.toString();
    }
}
