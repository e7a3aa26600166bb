package io.rill.handler.codec.memcache.text;

import java.nio.charset.StandardCharsets;

/**
 * The text-protocol commands this codec speaks: the storage commands, the retrievals, delete,
 * incr/decr, touch, version and quit (memcached's {@code protocol.txt}). Each knows its name on the
 * wire and which arguments its line carries.
 */
public enum TextMemcacheCommand {
    /** {@code set <key> <flags> <exptime> <bytes> [noreply]}, then the data block. */
    SET(Shape.STORAGE),
    /** Like {@link #SET}, stored only when the key is absent. */
    ADD(Shape.STORAGE),
    /** Like {@link #SET}, stored only when the key is present. */
    REPLACE(Shape.STORAGE),
    /** Adds the data after the stored value. */
    APPEND(Shape.STORAGE),
    /** Adds the data before the stored value. */
    PREPEND(Shape.STORAGE),
    /** {@code cas <key> <flags> <exptime> <bytes> <cas unique> [noreply]}: stored only if unchanged since a gets. */
    CAS(Shape.STORAGE),
    /** {@code get <key>*}. */
    GET(Shape.RETRIEVAL),
    /** {@code gets <key>*}: values with their cas unique. */
    GETS(Shape.RETRIEVAL),
    /** {@code gat <exptime> <key>*}: get and touch. */
    GAT(Shape.RETRIEVAL),
    /** {@code gats <exptime> <key>*}: gets and touch. */
    GATS(Shape.RETRIEVAL),
    /** {@code delete <key> [noreply]}. */
    DELETE(Shape.KEYED),
    /** {@code incr <key> <value> [noreply]}: a 64-bit unsigned counter. */
    INCR(Shape.KEYED),
    /** {@code decr <key> <value> [noreply]}: never below zero. */
    DECR(Shape.KEYED),
    /** {@code touch <key> <exptime> [noreply]}. */
    TOUCH(Shape.KEYED),
    /** {@code version}. */
    VERSION(Shape.BARE),
    /** {@code quit}: the server closes the connection. */
    QUIT(Shape.BARE);

    enum Shape { STORAGE, RETRIEVAL, KEYED, BARE }

    private static final TextMemcacheCommand[] VALUES = values();

    final Shape shape;
    final byte[] wireName;

    TextMemcacheCommand(Shape shape) {
        this.shape = shape;
        this.wireName = name().toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
    }

    /** {@return true for set, add, replace, append, prepend and cas, which carry a data block} */
    public boolean isStorage() {
        return shape == Shape.STORAGE;
    }

    /** {@return true for get, gets, gat and gats} */
    public boolean isRetrieval() {
        return shape == Shape.RETRIEVAL;
    }

    /** {@return true when the command may end in {@code noreply}} */
    public boolean allowsNoreply() {
        return shape == Shape.STORAGE || shape == Shape.KEYED;
    }

    /** The command whose name is the token {@code [from, to)} of {@code in}, or null. */
    static TextMemcacheCommand find(io.rill.buffer.ByteBuf in, int from, int to) {
        for (TextMemcacheCommand c : VALUES) {
            if (TextWire.is(in, from, to, c.wireName)) {
                return c;
            }
        }
        return null;
    }
}
