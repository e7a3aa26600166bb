package io.rill.handler.codec.http;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * The header fields of a message or of a trailer, in the order they were added. Names compare
 * ignoring ASCII case; a name may repeat.
 *
 * <p>Fields live in one flat array, names and values side by side, searched from the front. A
 * message has a few dozen fields at most (the decoder caps their total size), and for that a
 * linear scan over a compact array beats a hash table and allocates nothing per field; it also
 * cannot be flooded into collisions. A name matches by identity first (the decoder gives common
 * names as the {@link HttpHeaderNames} constants), then by length, then ignoring case.
 *
 * <p>With validation on (the default) names must be tokens and values may not contain CR, LF, NUL
 * or other control characters but HTAB (RFC 9110 §5.5), so no header set here can split a message
 * when it is encoded. Values given as other objects are converted: numbers in decimal, dates in
 * the RFC 9110 HTTP-date format.
 */
public class HttpHeaders implements Iterable<Map.Entry<String, String>> {

    private static final int INITIAL_FIELDS = 4;
    private static final CharSequence[] NO_FIELDS = new CharSequence[0];
    private static final short COLON_SP = (':' << 8) | ' ';
    private static final short CRLF = ('\r' << 8) | '\n';

    /** An empty set of headers that cannot be changed. */
    public static final HttpHeaders EMPTY = new HttpHeaders().toReadOnly();

    /** name0, value0, name1, value1, ...; [0, 2 * size) are in use. Allocated on the first add. */
    private CharSequence[] fields = NO_FIELDS;
    private int size;
    private final boolean validate;
    /** {@link #fields} may be read by other messages too (see {@link #moveFieldsFrom}): copied before a change. */
    private boolean fieldsShared;

    /** Empty headers that validate what is added. */
    public HttpHeaders() {
        this(true);
    }

    /**
     * Empty headers; {@code validate} false skips the character checks (for input already checked).
     *
     * @param validate true to check names and values as they are added
     */
    public HttpHeaders(boolean validate) {
        this.validate = validate;
    }

    /** A copy of {@code source}'s fields that validates like it: for {@link #copy()} and {@link ReadOnlyHttpHeaders}. */
    HttpHeaders(HttpHeaders source) {
        this.validate = source.validate;
        if (source.size > 0) {
            fields = new CharSequence[source.size << 1];
            System.arraycopy(source.fields, 0, fields, 0, source.size << 1);
        }
        size = source.size;
    }

    /**
     * A read-only copy of these headers (or these, if already read-only). Read-only headers can be
     * shared by many messages and threads, for instance by one response sent over and over; the
     * encoder writes them from an encoding made once, here, not field by field. Changing them
     * throws {@link UnsupportedOperationException}, so a handler that would add a field to such a
     * response (say {@code Connection: close}) fails loudly instead of changing every message.
     *
     * @return read-only headers with the same fields
     */
    public HttpHeaders toReadOnly() {
        return isReadOnly() ? this : new ReadOnlyHttpHeaders(this);
    }

    /**
     * Whether changing these headers throws: see {@link #toReadOnly()}.
     *
     * @return true for headers made by {@link #toReadOnly()}
     */
    public boolean isReadOnly() {
        return false;
    }

    // ------------------------------------------------------------------ reading

    /**
     * Number of fields (a repeated name counts once per field).
     *
     * @return the number of fields
     */
    public int size() {
        return size;
    }

    /**
     * Whether there is no field at all.
     *
     * @return true if {@link #size()} is 0
     */
    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * Name of field {@code i}, in insertion order; for iterating without allocation.
     *
     * @param i the index of the field, from 0 to {@code size() - 1}
     * @return the name
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public CharSequence nameAt(int i) {
        checkIndex(i);
        return fields[i << 1];
    }

    /**
     * Value of field {@code i}, in insertion order.
     *
     * @param i the index of the field, from 0 to {@code size() - 1}
     * @return the value
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public CharSequence valueAt(int i) {
        checkIndex(i);
        return fields[(i << 1) + 1];
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("field " + i + " of " + size);
        }
    }

    /** Index of the first field named {@code name} at or after {@code from}, or -1. */
    private int indexOf(CharSequence name, int from) {
        CharSequence[] f = fields;
        int length = name.length();
        for (int i = from, n = size; i < n; i++) {
            CharSequence candidate = f[i << 1];
            if (candidate == name || candidate.length() == length && AsciiString.contentEqualsIgnoreCase(candidate, name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The first value of {@code name}, or null.
     *
     * @param name the field name, any case
     * @return the value as stored (often an {@code AsciiString}), or null
     */
    public CharSequence getCharSequence(CharSequence name) {
        int i = indexOf(name, 0);
        return i < 0 ? null : fields[(i << 1) + 1];
    }

    /**
     * The first value of {@code name} as a String, or null.
     *
     * @param name the field name, any case
     * @return the value, or null
     */
    public String get(CharSequence name) {
        CharSequence v = getCharSequence(name);
        return v == null ? null : v.toString();
    }

    /**
     * The first value of {@code name}, or {@code defaultValue}.
     *
     * @param name         the field name, any case
     * @param defaultValue what to return when there is no such field
     * @return the value, or {@code defaultValue}
     */
    public String get(CharSequence name, String defaultValue) {
        String v = get(name);
        return v == null ? defaultValue : v;
    }

    /**
     * Every value of {@code name}, in order; empty if none.
     *
     * @param name the field name, any case
     * @return a new list of the values
     */
    public List<String> getAll(CharSequence name) {
        List<String> all = new ArrayList<>(2);
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
            all.add(fields[(i << 1) + 1].toString());
        }
        return all;
    }

    /**
     * The first value of {@code name} as a decimal int, or null if absent or not a number.
     *
     * @param name the field name, any case
     * @return the number, or null
     */
    public Integer getInt(CharSequence name) {
        long v = parseDecimal(getCharSequence(name));
        return v < 0 || v > Integer.MAX_VALUE ? null : (int) v;
    }

    /**
     * The first value of {@code name} as a decimal int, or {@code defaultValue} if absent or not a number.
     *
     * @param name         the field name, any case
     * @param defaultValue what to return when there is no such number
     * @return the number, or {@code defaultValue}
     */
    public int getInt(CharSequence name, int defaultValue) {
        Integer v = getInt(name);
        return v == null ? defaultValue : v;
    }

    /**
     * The first value of {@code name} as a non-negative decimal long, or {@code defaultValue}.
     *
     * @param name         the field name, any case
     * @param defaultValue what to return when there is no such number
     * @return the number, or {@code defaultValue}
     */
    public long getLong(CharSequence name, long defaultValue) {
        long v = parseDecimal(getCharSequence(name));
        return v < 0 ? defaultValue : v;
    }

    /** Digits only, no sign, no spaces, at most 18 of them; -1 otherwise. */
    static long parseDecimal(CharSequence s) {
        if (s == null || s.length() == 0 || s.length() > 18) {
            return -1;
        }
        long v = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /**
     * Whether there is a field named {@code name}.
     *
     * @param name the field name, any case
     * @return true if at least one field has the name
     */
    public boolean contains(CharSequence name) {
        return indexOf(name, 0) >= 0;
    }

    /**
     * Whether a field named {@code name} has exactly {@code value} (whole value).
     *
     * @param name       the field name, any case
     * @param value      the whole value to look for
     * @param ignoreCase whether the value is compared ignoring ASCII case
     * @return true if a field has the name and the value
     */
    public boolean contains(CharSequence name, CharSequence value, boolean ignoreCase) {
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
            CharSequence v = fields[(i << 1) + 1];
            if (ignoreCase ? AsciiString.contentEqualsIgnoreCase(v, value) : AsciiString.contentEquals(v, value)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a field named {@code name} lists {@code token} among its comma-separated elements
     * (RFC 9110 §5.6.1), e.g. {@code Connection: keep-alive, Upgrade} contains {@code upgrade}.
     *
     * @param name       the field name, any case
     * @param token      the element to look for
     * @param ignoreCase whether elements are compared ignoring ASCII case
     * @return true if a field has the name and lists the token
     */
    public boolean containsValue(CharSequence name, CharSequence token, boolean ignoreCase) {
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
            if (listContains(fields[(i << 1) + 1], token, ignoreCase)) {
                return true;
            }
        }
        return false;
    }

    static boolean listContains(CharSequence list, CharSequence token, boolean ignoreCase) {
        int n = list.length();
        int start = 0;
        while (start <= n) {
            int end = start;
            while (end < n && list.charAt(end) != ',') {
                end++;
            }
            int s = start;
            int e = end;
            while (s < e && isOws(list.charAt(s))) {
                s++;
            }
            while (e > s && isOws(list.charAt(e - 1))) {
                e--;
            }
            if (e - s == token.length() && regionMatches(list, s, token, ignoreCase)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private static boolean regionMatches(CharSequence s, int from, CharSequence token, boolean ignoreCase) {
        for (int i = 0, n = token.length(); i < n; i++) {
            char a = s.charAt(from + i);
            char b = token.charAt(i);
            if (a != b && (!ignoreCase || toLower(a) != toLower(b))) {
                return false;
            }
        }
        return true;
    }

    private static char toLower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    /**
     * The distinct names, in order of first appearance.
     *
     * @return a new set of the names, as strings
     */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < size; i++) {
            String name = fields[i << 1].toString();
            boolean seen = false;
            for (String s : names) {
                if (s.equalsIgnoreCase(name)) {
                    seen = true;
                    break;
                }
            }
            if (!seen) {
                names.add(name);
            }
        }
        return Collections.unmodifiableSet(names);
    }

    /**
     * Calls {@code action} with each name and value in order; allocates nothing.
     *
     * @param action receives each name and value
     */
    public void forEach(BiConsumer<? super CharSequence, ? super CharSequence> action) {
        for (int i = 0; i < size; i++) {
            action.accept(fields[i << 1], fields[(i << 1) + 1]);
        }
    }

    /** Each field as a String pair, in order. */
    @Override
    public Iterator<Map.Entry<String, String>> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < size;
            }

            @Override
            public Map.Entry<String, String> next() {
                if (next >= size) {
                    throw new NoSuchElementException();
                }
                int i = next++;
                return new AbstractMap.SimpleImmutableEntry<>(fields[i << 1].toString(), fields[(i << 1) + 1].toString());
            }
        };
    }

    // ------------------------------------------------------------------ writing

    /**
     * Adds a field; {@code value} is converted as the class comment says.
     *
     * @param name  the field name
     * @param value the value; a {@code CharSequence}, number, {@code Date}, {@code TemporalAccessor} or any
     *              object by its {@code toString()}
     * @return these headers
     * @throws IllegalArgumentException if validation is on and the name or value holds a forbidden character
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders add(CharSequence name, Object value) {
        CharSequence v = toCharSequence(name, value);
        if (validate) {
            HttpHeaderValidation.validateName(name);
            HttpHeaderValidation.validateValue(name, v);
        }
        append(name, v);
        return this;
    }

    /**
     * Adds one field per value.
     *
     * @param name   the field name
     * @param values the values, converted like {@link #add(CharSequence, Object)}'s
     * @return these headers
     * @throws IllegalArgumentException if validation is on and the name or a value holds a forbidden
     *                                  character
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders add(CharSequence name, Iterable<?> values) {
        for (Object v : values) {
            add(name, v);
        }
        return this;
    }

    /**
     * Adds a field whose value is {@code value} in decimal.
     *
     * @param name  the field name
     * @param value the value
     * @return these headers
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders addInt(CharSequence name, int value) {
        return add(name, Integer.toString(value));
    }

    /**
     * Adds every field of {@code other}.
     *
     * @param other the headers to copy from; unchanged
     * @return these headers
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders add(HttpHeaders other) {
        for (int i = 0; i < other.size; i++) {
            add(other.fields[i << 1], other.fields[(i << 1) + 1]);
        }
        return this;
    }

    /**
     * Replaces every field named {@code name} with one of {@code value}.
     *
     * @param name  the field name
     * @param value the value, converted like {@link #add(CharSequence, Object)}'s
     * @return these headers
     * @throws IllegalArgumentException if validation is on and the name or value holds a forbidden character
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders set(CharSequence name, Object value) {
        CharSequence v = toCharSequence(name, value);
        if (validate) {
            HttpHeaderValidation.validateName(name);
            HttpHeaderValidation.validateValue(name, v);
        }
        remove(name);
        append(name, v);
        return this;
    }

    /**
     * Replaces every field named {@code name} with one per value.
     *
     * @param name   the field name
     * @param values the values, converted like {@link #add(CharSequence, Object)}'s
     * @return these headers
     * @throws IllegalArgumentException if validation is on and the name or a value holds a forbidden
     *                                  character
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders set(CharSequence name, Iterable<?> values) {
        remove(name);
        return add(name, values);
    }

    /**
     * Replaces every field named {@code name} with one whose value is {@code value} in decimal.
     *
     * @param name  the field name
     * @param value the value
     * @return these headers
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders setInt(CharSequence name, int value) {
        return set(name, Integer.toString(value));
    }

    /**
     * Replaces all fields with those of {@code other}.
     *
     * @param other the headers to copy from; unchanged
     * @return these headers
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders set(HttpHeaders other) {
        clear();
        return add(other);
    }

    /**
     * Removes every field named {@code name}; true if there was one.
     *
     * @param name the field name, any case
     * @return whether a field was removed
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public boolean remove(CharSequence name) {
        checkWritable();
        int first = indexOf(name, 0);
        if (first < 0) {
            return false;
        }
        int kept = first;
        for (int i = first + 1; i < size; i++) {
            if (indexOf(name, i) == i) {
                continue;
            }
            fields[kept << 1] = fields[i << 1];
            fields[(kept << 1) + 1] = fields[(i << 1) + 1];
            kept++;
        }
        Arrays.fill(fields, kept << 1, size << 1, null);
        size = kept;
        return true;
    }

    /**
     * Removes every field.
     *
     * @return these headers
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public HttpHeaders clear() {
        checkWritable();
        Arrays.fill(fields, 0, size << 1, null);
        size = 0;
        return this;
    }

    /**
     * A mutable copy that validates like this one.
     *
     * @return a new, mutable copy
     */
    public HttpHeaders copy() {
        return new HttpHeaders(this);
    }

    /** Writes the fields as a message head carries them: {@code name: value CRLF} each. */
    void encode(ByteBuf buf) {
        for (int i = 0, n = size << 1; i < n; i += 2) {
            HttpObjectEncoder.writeAscii(buf, fields[i]);
            buf.writeShort(COLON_SP);
            HttpObjectEncoder.writeAscii(buf, fields[i + 1]);
            buf.writeShort(CRLF);
        }
    }

    /**
     * Takes every field of {@code from} (which is left empty) into these empty headers. The decoder
     * gathers a head's fields in a reused set and, for bytes it saw at the same place in the last
     * head, hands over the very same name and value objects; a keep-alive client sends the same
     * fields request after request, so when they are exactly those in {@code previous} (the array
     * the last head took) these headers share that array, and copy it before their first change.
     * Otherwise they take a new array of exactly their number.
     *
     * @param previous the array the last head took, or null
     * @return the array these headers now read, to pass as {@code previous} with the next head
     */
    CharSequence[] moveFieldsFrom(HttpHeaders from, CharSequence[] previous) {
        int n = from.size << 1;
        if (n == 0) {
            return previous;
        }
        checkWritable();
        if (size != 0) {
            throw new IllegalStateException("fields can only be moved into empty headers");
        }
        CharSequence[] taken = previous;
        if (!sameObjects(from.fields, previous, n)) {
            taken = new CharSequence[n];
            System.arraycopy(from.fields, 0, taken, 0, n);
        }
        fields = taken;
        fieldsShared = true;
        size = from.size;
        from.clear();
        return taken;
    }

    private static boolean sameObjects(CharSequence[] fields, CharSequence[] previous, int n) {
        if (previous == null || previous.length != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (fields[i] != previous[i]) {
                return false;
            }
        }
        return true;
    }

    /** Appends a field without validation: for the decoder, which checked every byte already. */
    void addValidated(CharSequence name, CharSequence value) {
        append(name, value);
    }

    private void append(CharSequence name, CharSequence value) {
        checkWritable();
        int at = size << 1;
        if (at == fields.length) {
            // new + arraycopy: Arrays.copyOf of a CharSequence[] goes through reflection
            CharSequence[] grown = new CharSequence[Math.max(INITIAL_FIELDS * 2, at << 1)];
            System.arraycopy(fields, 0, grown, 0, at);
            fields = grown;
        }
        fields[at] = name;
        fields[at + 1] = value;
        size++;
    }

    /** Called before every change: refuses it if read-only, and makes a shared array this set's own. */
    private void checkWritable() {
        if (isReadOnly()) {
            throw new UnsupportedOperationException("these headers are read-only");
        }
        if (fieldsShared) {
            CharSequence[] own = new CharSequence[fields.length + 4]; // room for the field or two a handler adds
            System.arraycopy(fields, 0, own, 0, size << 1);
            fields = own;
            fieldsShared = false;
        }
    }

    private static CharSequence toCharSequence(CharSequence name, Object value) {
        if (name == null || value == null) {
            throw new NullPointerException(name == null ? "name" : "value of header '" + name + "'");
        }
        if (value instanceof CharSequence cs) {
            return cs;
        }
        if (value instanceof Date date) {
            return DateFormatter.format(date.getTime());
        }
        if (value instanceof java.time.temporal.TemporalAccessor t) {
            return DateFormatter.format(java.time.Instant.from(t).toEpochMilli());
        }
        return value.toString();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("HttpHeaders[");
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(fields[i << 1]).append(": ").append(fields[(i << 1) + 1]);
        }
        return sb.append(']').toString();
    }
}
