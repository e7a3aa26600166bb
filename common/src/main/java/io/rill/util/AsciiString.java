package io.rill.util;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An immutable string of one-byte characters, for protocol text such as HTTP header names and
 * values: written to the wire as is, compared without decoding, hashed ignoring case.
 *
 * <p>Characters above U+007F cannot be represented and are stored as {@code '?'}. Bytes given
 * directly (the byte-array constructors) are taken as they are, so {@link #charAt} returns
 * {@code byte & 0xFF}.
 *
 * <p>Equality comes in two flavours. {@link #equals(Object)} is exact and true only for another
 * {@code AsciiString} (a {@code String} can't be equal back); {@link #contentEquals} and
 * {@link #contentEqualsIgnoreCase} compare with any {@link CharSequence}. {@link #hashCode()}
 * and the static {@link #hashCode(CharSequence)} ignore ASCII case and agree for an
 * {@code AsciiString} and a {@code String} of the same text, so header maps can hash by either.
 */
public final class AsciiString implements CharSequence, Comparable<CharSequence> {

    /** The string of length zero. */
    public static final AsciiString EMPTY = cached("");

    private static final byte REPLACEMENT = '?';

    /** Characters live in {@code value[offset, offset + length)}; never modified once shared. */
    private final byte[] value;
    private final int offset;
    private final int length;
    /** Case-insensitive hash, 0 until computed (racy but idempotent). */
    private int hash;
    /** Cached {@link #toString()}, null until asked (racy but idempotent). */
    private String string;

    /**
     * Copies {@code value}.
     *
     * @param value the bytes, one character each; the array is copied
     */
    public AsciiString(byte[] value) {
        this(value, 0, value.length, true);
    }

    /**
     * Wraps or copies {@code value}; wrapping is only safe if nobody writes to the array later.
     *
     * @param value the bytes, one character each
     * @param copy true to copy the array, false to share it
     */
    public AsciiString(byte[] value, boolean copy) {
        this(value, 0, value.length, copy);
    }

    /**
     * Wraps or copies {@code value[start, start + length)}.
     *
     * @param value the array holding the characters
     * @param start index of the first character in {@code value}
     * @param length number of characters
     * @param copy true to copy the range, false to share the array
     */
    public AsciiString(byte[] value, int start, int length, boolean copy) {
        Objects.checkFromIndexSize(start, length, value.length);
        if (copy) {
            this.value = Arrays.copyOfRange(value, start, start + length);
            this.offset = 0;
        } else {
            this.value = value;
            this.offset = start;
        }
        this.length = length;
    }

    /**
     * Encodes {@code text}, replacing characters above U+007F by {@code '?'}.
     *
     * @param text the characters to encode
     */
    public AsciiString(CharSequence text) {
        int n = text.length();
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = toByte(text.charAt(i));
        }
        this.value = bytes;
        this.offset = 0;
        this.length = n;
    }

    /**
     * {@code text} itself if it is an {@code AsciiString}, else an encoded copy.
     *
     * @param text the characters; null is not allowed
     * @return an {@code AsciiString} with the same characters
     */
    public static AsciiString of(CharSequence text) {
        return text instanceof AsciiString ascii ? ascii : new AsciiString(text);
    }

    /**
     * Encodes {@code text} and keeps it as the result of {@link #toString()}; for constants.
     *
     * @param text the characters to encode
     * @return a string whose {@link #toString()} returns {@code text} without encoding again
     */
    public static AsciiString cached(String text) {
        AsciiString ascii = new AsciiString(text);
        ascii.string = text;
        return ascii;
    }

    /**
     * {@return the byte at {@code index}}
     *
     * @param index zero-based position in this string
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code [0, length())}
     */
    public byte byteAt(int index) {
        Objects.checkIndex(index, length);
        return value[offset + index];
    }

    /** {@return the backing array, not a copy: do not modify it} Characters start at {@link #arrayOffset()}. */
    public byte[] array() {
        return value;
    }

    /** {@return the index in {@link #array()} of this string's first character} */
    public int arrayOffset() {
        return offset;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public boolean isEmpty() {
        return length == 0;
    }

    /** {@return a new array holding a copy of the characters as bytes} */
    public byte[] toByteArray() {
        return Arrays.copyOfRange(value, offset, offset + length);
    }

    @Override
    public char charAt(int index) {
        return (char) (byteAt(index) & 0xFF);
    }

    /** A view sharing this string's array. */
    @Override
    public AsciiString subSequence(int start, int end) {
        Objects.checkFromToIndex(start, end, length);
        if (start == 0 && end == length) {
            return this;
        }
        return new AsciiString(value, offset + start, end - start, false);
    }

    /**
     * {@return the characters from {@code start} to the end, sharing this string's array}
     *
     * @param start index of the first character to keep
     * @throws IndexOutOfBoundsException if {@code start} is outside {@code [0, length()]}
     */
    public AsciiString subSequence(int start) {
        return subSequence(start, length);
    }

    @Override
    public String toString() {
        String s = string;
        if (s == null) {
            s = new String(value, offset, length, StandardCharsets.ISO_8859_1);
            string = s;
        }
        return s;
    }

    /** Exact, case-sensitive comparison with another {@code AsciiString}. */
    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof AsciiString that) || length != that.length
                || (hash != 0 && that.hash != 0 && hash != that.hash)) {
            return false;
        }
        return Arrays.equals(value, offset, offset + length, that.value, that.offset, that.offset + length);
    }

    /** Case-insensitive; see {@link #hashCode(CharSequence)}. */
    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 1;
            for (int i = offset, end = offset + length; i < end; i++) {
                byte b = value[i];
                h = 31 * h + toLowerCase(b < 0 ? REPLACEMENT : b);
            }
            hash = h;
        }
        return h;
    }

    /**
     * A hash of {@code text} that ignores ASCII case and maps characters above U+007F to
     * {@code '?'}, so it is equal for any two sequences that {@link #contentEqualsIgnoreCase}
     * considers equal, whatever their classes.
     *
     * @param text the characters to hash
     * @return the case-insensitive hash; 0 for an empty sequence
     */
    public static int hashCode(CharSequence text) {
        if (text == null) {
            return 0;
        }
        if (text instanceof AsciiString ascii) {
            return ascii.hashCode();
        }
        int h = 1;
        for (int i = 0, n = text.length(); i < n; i++) {
            h = 31 * h + toLowerCase(toByte(text.charAt(i)));
        }
        return h;
    }

    /**
     * {@return true if {@code other} holds the same characters, whatever its class}
     *
     * @param other the characters to compare with
     */
    public boolean contentEquals(CharSequence other) {
        return contentEquals(this, other);
    }

    /**
     * {@return true if {@code other} holds the same characters, ignoring ASCII case}
     *
     * @param other the characters to compare with
     */
    public boolean contentEqualsIgnoreCase(CharSequence other) {
        return contentEqualsIgnoreCase(this, other);
    }

    /**
     * Alias of {@link #contentEqualsIgnoreCase(CharSequence)}, named like {@link String#equalsIgnoreCase}.
     *
     * @param other the characters to compare with
     * @return true if the characters are equal ignoring ASCII case
     */
    public boolean equalsIgnoreCase(CharSequence other) {
        return contentEqualsIgnoreCase(this, other);
    }

    /**
     * Same characters, compared as encoded ({@code '?'} for characters above U+007F); nulls equal only nulls.
     *
     * @param a one sequence, may be null
     * @param b the other sequence, may be null
     * @return true if both hold the same characters or both are null
     */
    public static boolean contentEquals(CharSequence a, CharSequence b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length() != b.length()) {
            return false;
        }
        for (int i = 0, n = a.length(); i < n; i++) {
            if (toByte(a.charAt(i)) != toByte(b.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Same characters ignoring ASCII case; nulls equal only nulls.
     *
     * @param a one sequence, may be null
     * @param b the other sequence, may be null
     * @return true if both hold the same characters ignoring ASCII case, or both are null
     */
    public static boolean contentEqualsIgnoreCase(CharSequence a, CharSequence b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length() != b.length()) {
            return false;
        }
        for (int i = 0, n = a.length(); i < n; i++) {
            if (toLowerCase(toByte(a.charAt(i))) != toLowerCase(toByte(b.charAt(i)))) {
                return false;
            }
        }
        return true;
    }

    /** Orders by unsigned character value, then length; like {@link String#compareTo}. */
    @Override
    public int compareTo(CharSequence other) {
        int n = Math.min(length, other.length());
        for (int i = 0; i < n; i++) {
            int diff = charAt(i) - other.charAt(i);
            if (diff != 0) {
                return diff;
            }
        }
        return length - other.length();
    }

    /**
     * {@return the index of the first {@code ch} at or after {@code from}, or -1}
     *
     * @param ch the character to look for
     * @param from where to start looking
     */
    public int indexOf(char ch, int from) {
        if (ch > 0xFF) {
            return -1;
        }
        byte b = (byte) ch;
        for (int i = Math.max(from, 0); i < length; i++) {
            if (value[offset + i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@return the index of the first occurrence of {@code sub} at or after {@code from}, or -1}
     *
     * @param sub the characters to look for
     * @param from where to start looking
     */
    public int indexOf(CharSequence sub, int from) {
        int n = sub.length();
        for (int i = Math.max(from, 0); i <= length - n; i++) {
            if (regionMatches(i, sub, false)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@return true if {@code sub} occurs anywhere in this string}
     *
     * @param sub the characters to look for
     */
    public boolean contains(CharSequence sub) {
        return indexOf(sub, 0) >= 0;
    }

    /**
     * {@return true if this string begins with {@code prefix}}
     *
     * @param prefix the characters to compare with, case-sensitively
     */
    public boolean startsWith(CharSequence prefix) {
        return prefix.length() <= length && regionMatches(0, prefix, false);
    }

    /**
     * {@return true if this string ends with {@code suffix}}
     *
     * @param suffix the characters to compare with, case-sensitively
     */
    public boolean endsWith(CharSequence suffix) {
        return suffix.length() <= length && regionMatches(length - suffix.length(), suffix, false);
    }

    /**
     * {@return true if {@code other} occurs at {@code start}, optionally ignoring ASCII case}
     *
     * @param start index in this string where {@code other} should begin
     * @param other the characters to compare with
     * @param ignoreCase whether {@code 'a'} matches {@code 'A'}
     */
    public boolean regionMatches(int start, CharSequence other, boolean ignoreCase) {
        int n = other.length();
        if (start < 0 || start > length - n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            byte mine = value[offset + start + i];
            byte theirs = toByte(other.charAt(i));
            if (mine != theirs && !(ignoreCase && toLowerCase(mine) == toLowerCase(theirs))) {
                return false;
            }
        }
        return true;
    }

    /** {@return this string with A-Z mapped to a-z; {@code this} if there are none} */
    public AsciiString toLowerCase() {
        return mapCase(false);
    }

    /** {@return this string with a-z mapped to A-Z; {@code this} if there are none} */
    public AsciiString toUpperCase() {
        return mapCase(true);
    }

    /**
     * {@return this string without leading and trailing spaces and control characters (as {@link String#trim});
     * it may share the array}
     */
    public AsciiString trim() {
        int start = 0;
        int end = length;
        while (start < end && (value[offset + start] & 0xFF) <= ' ') {
            start++;
        }
        while (end > start && (value[offset + end - 1] & 0xFF) <= ' ') {
            end--;
        }
        return subSequence(start, end);
    }

    /**
     * {@return the parts between occurrences of {@code delimiter}, including empty ones; views sharing the
     * array}
     *
     * @param delimiter the separating character
     */
    public AsciiString[] split(char delimiter) {
        List<AsciiString> parts = new ArrayList<>();
        int start = 0;
        int at;
        while ((at = indexOf(delimiter, start)) >= 0) {
            parts.add(subSequence(start, at));
            start = at + 1;
        }
        parts.add(subSequence(start, length));
        return parts.toArray(new AsciiString[0]);
    }

    /**
     * Parses the whole string as a decimal {@code int}; the exception quotes the input.
     *
     * @return the value
     * @throws NumberFormatException if the string is not a decimal {@code int}; the message quotes it
     */
    public int parseInt() {
        long result = parseLong(0, length, 10);
        if (result != (int) result) {
            throw new NumberFormatException("out of int range: \"" + this + '"');
        }
        return (int) result;
    }

    /**
     * Parses the whole string as a decimal {@code long}; the exception quotes the input.
     *
     * @return the value
     * @throws NumberFormatException if the string is not a decimal {@code long}; the message quotes it
     */
    public long parseLong() {
        return parseLong(0, length, 10);
    }

    /**
     * Parses {@code [start, end)} in {@code radix}, with an optional sign; no whitespace allowed.
     * Allocates nothing unless it fails, so header values can be parsed per request.
     *
     * @param start index of the first character to parse
     * @param end index after the last character to parse
     * @param radix the base, 2 to 36
     * @return the value
     * @throws NumberFormatException if the range is empty, holds a non-digit or overflows; the message quotes it
     */
    public long parseLong(int start, int end, int radix) {
        Objects.checkFromToIndex(start, end, length);
        if (radix < Character.MIN_RADIX || radix > Character.MAX_RADIX) {
            throw new NumberFormatException("radix out of range: " + radix);
        }
        int i = offset + start;
        int stop = offset + end;
        boolean negative = i < stop && value[i] == '-';
        if (i < stop && (negative || value[i] == '+')) {
            i++;
        }
        if (i == stop) {
            throw notANumber(start, end, radix);
        }
        // Accumulates negatively: the negative range is one larger, so Long.MIN_VALUE parses too.
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long minBeforeMultiply = limit / radix;
        long result = 0;
        for (; i < stop; i++) {
            byte b = value[i];
            int digit = b < 0 ? -1 : Character.digit((char) b, radix);
            if (digit < 0 || result < minBeforeMultiply || result * radix < limit + digit) {
                throw notANumber(start, end, radix);
            }
            result = result * radix - digit;
        }
        return negative ? result : -result;
    }

    private NumberFormatException notANumber(int start, int end, int radix) {
        return new NumberFormatException("not a " + (radix == 10 ? "" : "radix-" + radix + " ")
                + "number in long range: \"" + subSequence(start, end) + '"');
    }

    /**
     * {@return true if {@code b} is an ASCII upper-case letter}
     *
     * @param b the byte to test
     */
    public static boolean isUpperCase(byte b) {
        return b >= 'A' && b <= 'Z';
    }

    /**
     * {@return true if {@code b} is an ASCII lower-case letter}
     *
     * @param b the byte to test
     */
    public static boolean isLowerCase(byte b) {
        return b >= 'a' && b <= 'z';
    }

    /**
     * {@return true if {@code c} is an ASCII upper-case letter}
     *
     * @param c the character to test
     */
    public static boolean isUpperCase(char c) {
        return c >= 'A' && c <= 'Z';
    }

    /**
     * {@return {@code b} mapped to lower case if it is an ASCII upper-case letter, else {@code b}}
     *
     * @param b the byte to map
     */
    public static byte toLowerCase(byte b) {
        return isUpperCase(b) ? (byte) (b + ('a' - 'A')) : b;
    }

    /**
     * {@return {@code b} mapped to upper case if it is an ASCII lower-case letter, else {@code b}}
     *
     * @param b the byte to map
     */
    public static byte toUpperCase(byte b) {
        return isLowerCase(b) ? (byte) (b - ('a' - 'A')) : b;
    }

    private AsciiString mapCase(boolean upper) {
        int i = 0;
        for (; i < length; i++) {
            byte b = value[offset + i];
            if (upper ? isLowerCase(b) : isUpperCase(b)) {
                break;
            }
        }
        if (i == length) {
            return this;
        }
        byte[] mapped = toByteArray();
        for (; i < length; i++) {
            mapped[i] = upper ? toUpperCase(mapped[i]) : toLowerCase(mapped[i]);
        }
        return new AsciiString(mapped, false);
    }

    private static byte toByte(char c) {
        return c > 0x7F ? REPLACEMENT : (byte) c;
    }
}
