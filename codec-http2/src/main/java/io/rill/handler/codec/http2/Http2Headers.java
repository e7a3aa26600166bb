package io.rill.handler.codec.http2;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.BiConsumer;

import io.rill.util.AsciiString;

/**
 * The field section of an HTTP/2 {@code HEADERS} frame (and its trailers): an ordered list of
 * name/value pairs in which the pseudo-header fields ({@code :method}, {@code :scheme},
 * {@code :authority}, {@code :path}, {@code :status}, {@code :protocol}) always come first, as
 * RFC 9113 §8.3 requires of what is sent. Names are lower case (§8.2.1): {@link #add} and
 * {@link #set} lower-case what they are given, and the HPACK decoder rejects upper-case names it
 * receives. Lookups compare names exactly and scan the list, which is short.
 *
 * <p>Not thread-safe: a headers object belongs to the code that builds or reads it, usually on
 * the channel's event loop.
 */
public final class Http2Headers implements Iterable<Map.Entry<CharSequence, CharSequence>> {

    /** {@code :method}, the request method. */
    public static final AsciiString METHOD = AsciiString.cached(":method");
    /** {@code :scheme}, the request target's scheme. */
    public static final AsciiString SCHEME = AsciiString.cached(":scheme");
    /** {@code :authority}, the request target's authority. */
    public static final AsciiString AUTHORITY = AsciiString.cached(":authority");
    /** {@code :path}, the request target's path and query. */
    public static final AsciiString PATH = AsciiString.cached(":path");
    /** {@code :status}, the response status code. */
    public static final AsciiString STATUS = AsciiString.cached(":status");
    /** {@code :protocol}, the protocol of an extended CONNECT (RFC 8441). */
    public static final AsciiString PROTOCOL = AsciiString.cached(":protocol");

    /**
     * The fields, name and value interleaved: field {@code i} is {@code fields[2i]: fields[2i + 1]}.
     * One array rather than two halves what a field section costs beyond its strings: this object
     * is made for every request and every response.
     */
    private CharSequence[] fields;
    /** Fields in use: slots {@code [0, 2 * size)}. */
    private int size;
    /** Fields at the front that are pseudo-header fields: {@code [0, pseudoCount)}. */
    private int pseudoCount;

    /** An empty field section. */
    public Http2Headers() {
        this(4); // a typical response: :status, content-type, content-length and one more
    }

    /** An empty field section with room for {@code expectedFields} before it grows; the HPACK decoder knows. */
    Http2Headers(int expectedFields) {
        fields = new CharSequence[2 * Math.max(expectedFields, 1)];
    }

    /**
     * Whether {@code name} is a pseudo-header field name: it starts with a colon.
     *
     * @param name a field name
     * @return {@code true} for {@code :method}, {@code :path} and the like
     */
    public static boolean isPseudoHeader(CharSequence name) {
        return name.length() > 0 && name.charAt(0) == ':';
    }

    /**
     * Adds a field after the others of its kind (pseudo-header fields stay in front).
     *
     * @param name the field name; lower-cased if it has upper-case letters
     * @param value the field value
     * @return this
     */
    public Http2Headers add(CharSequence name, CharSequence value) {
        CharSequence lower = lowerCase(name);
        if (isPseudoHeader(lower)) {
            insert(pseudoCount++, lower, value);
        } else {
            insert(size, lower, value);
        }
        return this;
    }

    /**
     * Replaces every field named {@code name} by one with {@code value}.
     *
     * @param name the field name; lower-cased if it has upper-case letters
     * @param value the field value
     * @return this
     */
    public Http2Headers set(CharSequence name, CharSequence value) {
        CharSequence lower = lowerCase(name);
        remove(lower);
        return add(lower, value);
    }

    /**
     * The first value of {@code name}.
     *
     * @param name the field name, in lower case
     * @return the value, or {@code null} if there is no such field
     */
    public CharSequence get(CharSequence name) {
        int i = indexOf(name, 0);
        return i < 0 ? null : fields[2 * i + 1];
    }

    /**
     * Every value of {@code name}, in order.
     *
     * @param name the field name, in lower case
     * @return the values; empty if there is no such field
     */
    public List<CharSequence> getAll(CharSequence name) {
        List<CharSequence> all = new ArrayList<>(2);
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
            all.add(fields[2 * i + 1]);
        }
        return all;
    }

    /**
     * Whether a field named {@code name} is present.
     *
     * @param name the field name, in lower case
     * @return {@code true} if at least one such field is present
     */
    public boolean contains(CharSequence name) {
        return indexOf(name, 0) >= 0;
    }

    /**
     * Removes every field named {@code name}.
     *
     * @param name the field name; lower-cased if it has upper-case letters
     * @return whether any field was removed
     */
    public boolean remove(CharSequence name) {
        CharSequence lower = lowerCase(name);
        int kept = 0;
        int keptPseudo = 0;
        for (int i = 0; i < size; i++) {
            if (!AsciiString.contentEquals(fields[2 * i], lower)) {
                if (i < pseudoCount) {
                    keptPseudo++;
                }
                fields[2 * kept] = fields[2 * i];
                fields[2 * kept++ + 1] = fields[2 * i + 1];
            }
        }
        boolean removed = kept != size;
        Arrays.fill(fields, 2 * kept, 2 * size, null);
        size = kept;
        pseudoCount = keptPseudo;
        return removed;
    }

    /**
     * The number of fields, pseudo-header fields included.
     *
     * @return the field count
     */
    public int size() {
        return size;
    }

    /**
     * Whether there is no field at all.
     *
     * @return {@code true} if empty
     */
    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * The name of the field at {@code index}, in order.
     *
     * @param index from 0 to {@link #size()} - 1
     * @return the name
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public CharSequence nameAt(int index) {
        return fields[2 * checkIndex(index)];
    }

    /**
     * The value of the field at {@code index}, in order.
     *
     * @param index from 0 to {@link #size()} - 1
     * @return the value
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public CharSequence valueAt(int index) {
        return fields[2 * checkIndex(index) + 1];
    }

    /**
     * Calls {@code action} with every field, in order, without allocating.
     *
     * @param action called with each name and value
     */
    public void forEach(BiConsumer<? super CharSequence, ? super CharSequence> action) {
        for (int i = 0; i < size; i++) {
            action.accept(fields[2 * i], fields[2 * i + 1]);
        }
    }

    /** Every field, in order, as read-only entries. */
    @Override
    public Iterator<Map.Entry<CharSequence, CharSequence>> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < size;
            }

            @Override
            public Map.Entry<CharSequence, CharSequence> next() {
                if (next >= size) {
                    throw new NoSuchElementException();
                }
                int i = next++;
                return new AbstractMap.SimpleImmutableEntry<>(fields[2 * i], fields[2 * i + 1]);
            }
        };
    }

    /** @return the {@code :method} value, or {@code null} */
    public CharSequence method() {
        return get(METHOD);
    }

    /**
     * Sets {@code :method}.
     *
     * @param method the request method, e.g. {@code GET}
     * @return this
     */
    public Http2Headers method(CharSequence method) {
        return set(METHOD, method);
    }

    /** @return the {@code :scheme} value, or {@code null} */
    public CharSequence scheme() {
        return get(SCHEME);
    }

    /**
     * Sets {@code :scheme}.
     *
     * @param scheme {@code http} or {@code https}
     * @return this
     */
    public Http2Headers scheme(CharSequence scheme) {
        return set(SCHEME, scheme);
    }

    /** @return the {@code :authority} value, or {@code null} */
    public CharSequence authority() {
        return get(AUTHORITY);
    }

    /**
     * Sets {@code :authority}.
     *
     * @param authority the target's host and optional port
     * @return this
     */
    public Http2Headers authority(CharSequence authority) {
        return set(AUTHORITY, authority);
    }

    /** @return the {@code :path} value, or {@code null} */
    public CharSequence path() {
        return get(PATH);
    }

    /**
     * Sets {@code :path}.
     *
     * @param path the target's path and query
     * @return this
     */
    public Http2Headers path(CharSequence path) {
        return set(PATH, path);
    }

    /** @return the {@code :status} value, or {@code null} */
    public CharSequence status() {
        return get(STATUS);
    }

    /**
     * Sets {@code :status}.
     *
     * @param status the three-digit status code
     * @return this
     */
    public Http2Headers status(CharSequence status) {
        return set(STATUS, status);
    }

    /** @return the {@code :protocol} value of an extended CONNECT, or {@code null} */
    public CharSequence protocol() {
        return get(PROTOCOL);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Http2Headers other) || other.size != size) {
            return false;
        }
        for (int i = 0; i < 2 * size; i++) {
            if (!AsciiString.contentEquals(fields[i], other.fields[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = size;
        for (int i = 0; i < 2 * size; i++) {
            h = h * 31 + AsciiString.hashCode(fields[i]);
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Http2Headers[");
        for (int i = 0; i < size; i++) {
            sb.append(i == 0 ? "" : ", ").append(fields[2 * i]).append(": ").append(fields[2 * i + 1]);
        }
        return sb.append(']').toString();
    }

    private int indexOf(CharSequence name, int from) {
        for (int i = from; i < size; i++) {
            if (AsciiString.contentEquals(fields[2 * i], name)) {
                return i;
            }
        }
        return -1;
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        return index;
    }

    private void insert(int at, CharSequence name, CharSequence value) {
        if (2 * size == fields.length) {
            fields = Arrays.copyOf(fields, fields.length * 2);
        }
        System.arraycopy(fields, 2 * at, fields, 2 * at + 2, 2 * (size - at));
        fields[2 * at] = name;
        fields[2 * at + 1] = value;
        size++;
    }

    private static CharSequence lowerCase(CharSequence name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return AsciiString.of(name).toLowerCase();
            }
        }
        return name;
    }
}
