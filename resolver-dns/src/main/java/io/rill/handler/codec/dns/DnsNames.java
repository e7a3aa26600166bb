package io.rill.handler.codec.dns;

import java.util.ArrayList;
import java.util.List;

/**
 * Domain names as Rill holds them: absolute presentation form with a trailing dot, the root as
 * {@code "."}; a label's own {@code '.'} or {@code '\\'} is escaped with a backslash (RFC 1035
 * §5.1), so names built from wire labels round-trip. Names compare without case (RFC 4343: ASCII only).
 */
public final class DnsNames {

    /** RFC 1035 §2.3.4: a label is at most 63 octets. */
    public static final int MAX_LABEL = 63;
    /** RFC 1035 §2.3.4: a name is at most 255 octets on the wire, length bytes and root included. */
    public static final int MAX_NAME = 255;

    private DnsNames() {
    }

    /**
     * {@code name} with a trailing dot.
     *
     * @param name a name, relative or absolute
     * @return the absolute form
     */
    public static String absolute(String name) {
        return name.endsWith(".") ? name : name + '.';
    }

    /**
     * Whether two names are equal ignoring ASCII case.
     *
     * @param a a name
     * @param b another name
     * @return true if equal
     */
    public static boolean equalsIgnoreCase(String a, String b) {
        return a.length() == b.length() && a.regionMatches(true, 0, b, 0, a.length());
    }

    /**
     * Whether {@code name} is {@code zone} or below it, ignoring case: {@code a.example.com.} is in
     * {@code example.com.} and in {@code .}, {@code badexample.com.} is not in {@code example.com.}.
     *
     * @param name an absolute name
     * @param zone an absolute name
     * @return true if name lies within zone
     */
    public static boolean isInZone(String name, String zone) {
        if (zone.equals(".")) {
            return true;
        }
        int offset = name.length() - zone.length();
        if (offset < 0 || !name.regionMatches(true, offset, zone, 0, zone.length())) {
            return false;
        }
        return offset == 0 || (name.charAt(offset - 1) == '.' && (offset < 2 || name.charAt(offset - 2) != '\\'));
    }

    /**
     * The labels of {@code name}, escapes removed, root excluded: {@code "a.b."} gives {@code [a, b]}.
     *
     * @param name an absolute name
     * @return the labels, each at most 63 chars
     * @throws IllegalArgumentException if the name is not absolute, has an empty or oversized label, or is over 255 octets
     */
    public static List<String> labels(String name) {
        if (name.equals(".")) {
            return List.of();
        }
        if (!name.endsWith(".")) {
            throw new IllegalArgumentException("not an absolute name (no trailing dot): " + name);
        }
        List<String> labels = new ArrayList<>();
        StringBuilder label = new StringBuilder();
        int wire = 1;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\\' && i + 1 < name.length()) {
                label.append(name.charAt(++i));
            } else if (c == '.') {
                if (label.length() == 0) {
                    throw new IllegalArgumentException("empty label in " + name);
                }
                if (label.length() > MAX_LABEL) {
                    throw new IllegalArgumentException("label over " + MAX_LABEL + " octets (DnsNames.MAX_LABEL) in " + name);
                }
                wire += 1 + label.length();
                labels.add(label.toString());
                label.setLength(0);
            } else if (c > 0xFF) {
                throw new IllegalArgumentException("not an ASCII or Latin-1 name (use its A-label form): " + name);
            } else {
                label.append(c);
            }
        }
        if (wire > MAX_NAME) {
            throw new IllegalArgumentException("name of " + wire + " octets over " + MAX_NAME + " (DnsNames.MAX_NAME): " + name);
        }
        return labels;
    }

    /**
     * {@code name} with ASCII letters lower-cased and nothing else changed (RFC 4343 §3); returns
     * {@code name} itself, allocating nothing, when it has no upper-case ASCII letter.
     *
     * @param name a name
     * @return its case-folded form
     */
    public static String asciiLowerCase(String name) {
        int i = 0;
        while (i < name.length() && !(name.charAt(i) >= 'A' && name.charAt(i) <= 'Z')) {
            i++;
        }
        if (i == name.length()) {
            return name;
        }
        char[] c = name.toCharArray();
        for (; i < c.length; i++) {
            if (c[i] >= 'A' && c[i] <= 'Z') {
                c[i] += 'a' - 'A';
            }
        }
        return new String(c);
    }

    /** Throws unless {@code name} is a well-formed absolute name. */
    static void checkName(String name) {
        if (name == null) {
            throw new NullPointerException("name");
        }
        labels(name);
    }

    /** Appends one wire label to {@code out}, escaping what would be read as a separator. */
    static void appendLabel(StringBuilder out, byte[] bytes, int length) {
        for (int i = 0; i < length; i++) {
            char c = (char) (bytes[i] & 0xFF);
            if (c == '.' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        out.append('.');
    }
}
