package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * How HPACK turns {@link CharSequence}s into octets: one byte per character, ISO-8859-1, with a
 * character above U+00FF sent as {@code '?'} (HTTP field values are octets; RFC 9110 §5.5 keeps
 * them to visible ASCII in practice). The encoder writes, hashes and stores exactly these bytes so
 * its dynamic table holds what the peer's decoder holds.
 */
final class HpackStrings {

    private HpackStrings() {
    }

    /** The octet sent for character {@code i} of {@code s}. */
    static byte byteAt(CharSequence s, int i) {
        if (s instanceof AsciiString ascii) {
            return ascii.byteAt(i);
        }
        char c = s.charAt(i);
        return c <= 0xFF ? (byte) c : (byte) '?';
    }

    /** {@code s} as the octets sent: itself if it is an {@link AsciiString}, else a copy. */
    static AsciiString octets(CharSequence s) {
        if (s instanceof AsciiString ascii) {
            return ascii;
        }
        byte[] bytes = new byte[s.length()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = byteAt(s, i);
        }
        return new AsciiString(bytes, false);
    }

    /** Writes the octets of {@code s} as they are. */
    static void writeRaw(CharSequence s, ByteBuf out) {
        if (s instanceof AsciiString ascii) {
            out.writeBytes(ascii.array(), ascii.arrayOffset(), ascii.length());
            return;
        }
        for (int i = 0, n = s.length(); i < n; i++) {
            out.writeByte(byteAt(s, i));
        }
    }

    /** Whether two sequences send the same octets. */
    static boolean sameOctets(CharSequence a, CharSequence b) {
        if (a == b) {
            return true;
        }
        int n = a.length();
        if (n != b.length()) {
            return false;
        }
        if (a instanceof AsciiString x && b instanceof AsciiString y) {
            return java.util.Arrays.equals(x.array(), x.arrayOffset(), x.arrayOffset() + n,
                    y.array(), y.arrayOffset(), y.arrayOffset() + n);
        }
        for (int i = 0; i < n; i++) {
            if (byteAt(a, i) != byteAt(b, i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A hash equal for any two sequences {@link #sameOctets} accepts: {@link AsciiString}'s, which
     * ignores case (a collision that {@link #sameOctets} then settles) and which an
     * {@code AsciiString} caches, so the constant names and values most headers use hash once.
     */
    static int hash(CharSequence s) {
        return AsciiString.hashCode(s);
    }
}
