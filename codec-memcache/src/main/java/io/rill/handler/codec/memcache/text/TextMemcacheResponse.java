package io.rill.handler.codec.memcache.text;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;
import io.rill.buffer.Unpooled;

/**
 * One text-protocol reply line: a {@code VALUE} with its data block (held as a buffer, not copied),
 * a status word, an incr/decr result or an error or version line. A retrieval's answer is its
 * {@code VALUE}s, one message each, then {@link #END}; a client pairs replies with its requests in
 * order (noreply requests have none).
 */
public final class TextMemcacheResponse implements ByteBufHolder {

    /** What a reply line is. */
    public enum Type {
        /** {@code VALUE <key> <flags> <bytes> [<cas unique>]} and the data block. */
        VALUE,
        /** The end of a retrieval's values. */
        END,
        /** A storage command stored its item. */
        STORED,
        /** add, replace, append or prepend whose condition failed. */
        NOT_STORED,
        /** cas of an item changed since the gets. */
        EXISTS,
        /** No such item. */
        NOT_FOUND,
        /** delete removed the item. */
        DELETED,
        /** touch set the expiry. */
        TOUCHED,
        /** An incr/decr's new value. */
        NUMBER,
        /** An unknown command. */
        ERROR,
        /** {@code CLIENT_ERROR <message>}: the client's input was bad. */
        CLIENT_ERROR,
        /** {@code SERVER_ERROR <message>}: the server could not serve. */
        SERVER_ERROR,
        /** {@code VERSION <version>}. */
        VERSION;

        final byte[] wireName = name().getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code END}. */
    public static final TextMemcacheResponse END = status(Type.END);
    /** {@code STORED}. */
    public static final TextMemcacheResponse STORED = status(Type.STORED);
    /** {@code NOT_STORED}. */
    public static final TextMemcacheResponse NOT_STORED = status(Type.NOT_STORED);
    /** {@code EXISTS}. */
    public static final TextMemcacheResponse EXISTS = status(Type.EXISTS);
    /** {@code NOT_FOUND}. */
    public static final TextMemcacheResponse NOT_FOUND = status(Type.NOT_FOUND);
    /** {@code DELETED}. */
    public static final TextMemcacheResponse DELETED = status(Type.DELETED);
    /** {@code TOUCHED}. */
    public static final TextMemcacheResponse TOUCHED = status(Type.TOUCHED);
    /** {@code ERROR}. */
    public static final TextMemcacheResponse ERROR = status(Type.ERROR);

    private final Type type;
    private final String key;
    private final long flags;
    private final long cas;
    private final boolean hasCas;
    private final String message;
    private final ByteBuf data;

    TextMemcacheResponse(Type type, String key, long flags, long cas, boolean hasCas, String message, ByteBuf data) {
        this.type = type;
        this.key = key;
        this.flags = flags;
        this.cas = cas;
        this.hasCas = hasCas;
        this.message = message;
        this.data = data;
    }

    private static TextMemcacheResponse status(Type type) {
        return new TextMemcacheResponse(type, null, 0, 0, false, null, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A {@code VALUE} of get or gat.
     *
     * @param key the key
     * @param flags the item's flags
     * @param data the value; the response takes over its reference
     * @return the response
     */
    public static TextMemcacheResponse value(String key, long flags, ByteBuf data) {
        return value(key, flags, 0, false, data);
    }

    /**
     * A {@code VALUE} of gets or gats, with the item's cas unique.
     *
     * @param key the key
     * @param flags the item's flags
     * @param casUnique the item's cas unique
     * @param data the value; the response takes over its reference
     * @return the response
     */
    public static TextMemcacheResponse value(String key, long flags, long casUnique, ByteBuf data) {
        return value(key, flags, casUnique, true, data);
    }

    private static TextMemcacheResponse value(String key, long flags, long cas, boolean hasCas, ByteBuf data) {
        if (flags < 0 || flags > TextMemcacheRequest.MAX_FLAGS) {
            throw new IllegalArgumentException("flags are 0 to 2^32 - 1: " + flags);
        }
        return new TextMemcacheResponse(Type.VALUE, TextWire.checkKey(key), flags, cas, hasCas, null, data);
    }

    /**
     * An incr/decr result.
     *
     * @param value the new value, unsigned 64-bit
     * @return the response
     */
    public static TextMemcacheResponse number(long value) {
        return new TextMemcacheResponse(Type.NUMBER, null, 0, value, false, null, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A {@code CLIENT_ERROR}, {@code SERVER_ERROR} or {@code VERSION} line, or an {@code ERROR} with a text.
     *
     * @param type one of those four
     * @param message printable ASCII, at most 1024 chars
     * @return the response
     */
    public static TextMemcacheResponse withMessage(Type type, String message) {
        if (type != Type.CLIENT_ERROR && type != Type.SERVER_ERROR && type != Type.VERSION && type != Type.ERROR) {
            throw new IllegalArgumentException(type + " carries no message");
        }
        return new TextMemcacheResponse(type, null, 0, 0, false, TextWire.checkMessage(message), Unpooled.EMPTY_BUFFER);
    }

    /** {@return what the reply is} */
    public Type type() {
        return type;
    }

    /** {@return the key of a VALUE, else null} */
    public String key() {
        return key;
    }

    /** {@return the flags of a VALUE, else 0} */
    public long flags() {
        return flags;
    }

    /** {@return true when a VALUE carries a cas unique (gets, gats)} */
    public boolean hasCasUnique() {
        return hasCas;
    }

    /** {@return the cas unique of a VALUE, else 0} */
    public long casUnique() {
        return type == Type.VALUE ? cas : 0;
    }

    /** {@return the value of a NUMBER (unsigned 64-bit), else 0} */
    public long number() {
        return type == Type.NUMBER ? cas : 0;
    }

    /** {@return the text of an error or version line; null when there is none} */
    public String message() {
        return message;
    }

    /** {@return true for ERROR, CLIENT_ERROR and SERVER_ERROR} */
    public boolean isError() {
        return type == Type.ERROR || type == Type.CLIENT_ERROR || type == Type.SERVER_ERROR;
    }

    /** {@return the data block of a VALUE; empty otherwise} */
    @Override
    public ByteBuf content() {
        return data;
    }

    @Override
    public TextMemcacheResponse replace(ByteBuf content) {
        return new TextMemcacheResponse(type, key, flags, cas, hasCas, message, content);
    }

    @Override
    public TextMemcacheResponse retain() {
        data.retain();
        return this;
    }

    /** Equal types, fields and data bytes. */
    @Override
    public boolean equals(Object o) {
        return o instanceof TextMemcacheResponse r && type == r.type && java.util.Objects.equals(key, r.key)
                && flags == r.flags && cas == r.cas && hasCas == r.hasCas && java.util.Objects.equals(message, r.message)
                && data.equals(r.data);
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + java.util.Objects.hashCode(key);
    }

    @Override
    public String toString() {
        return switch (type) {
            case VALUE -> "VALUE " + key + " " + flags + " " + data.readableBytes() + (hasCas ? " " + Long.toUnsignedString(cas) : "");
            case NUMBER -> Long.toUnsignedString(cas);
            default -> type.name() + (message == null ? "" : " " + message);
        };
    }

}
