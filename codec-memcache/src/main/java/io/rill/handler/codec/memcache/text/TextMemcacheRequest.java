package io.rill.handler.codec.memcache.text;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;
import io.rill.buffer.Unpooled;

/**
 * One text-protocol command: its keys, the numbers its line carries and, for a storage command,
 * the data block (held as a buffer, not copied, released with the request). Made by the static
 * factories or by {@link TextMemcacheRequestDecoder}; immutable but for the data's reference count.
 *
 * <p>Numbers as memcached reads them: flags an unsigned 32-bit value (held in a {@code long}), exptime
 * a signed 32-bit value (0 never expires, negative already expired), cas unique and the incr/decr
 * delta unsigned 64-bit values (held in a {@code long}, read with {@link Long#toUnsignedString}).
 */
public final class TextMemcacheRequest implements ByteBufHolder {

    /** The largest flags value, 2^32 - 1. */
    public static final long MAX_FLAGS = 0xFFFF_FFFFL;

    private final TextMemcacheCommand command;
    private final List<String> keys;
    private final long flags;
    private final int exptime;
    private final long casUnique;
    private final long delta;
    private final boolean noreply;
    private final ByteBuf data;

    TextMemcacheRequest(TextMemcacheCommand command, List<String> keys, long flags, int exptime, long casUnique,
                        long delta, boolean noreply, ByteBuf data) {
        this.command = command;
        this.keys = keys;
        this.flags = flags;
        this.exptime = exptime;
        this.casUnique = casUnique;
        this.delta = delta;
        this.noreply = noreply;
        this.data = data;
    }

    /**
     * A set, add, replace, append or prepend.
     *
     * @param command one of the storage commands but {@link TextMemcacheCommand#CAS}
     * @param key the key
     * @param flags the client's flags stored with the item, 0 to 2^32 - 1
     * @param exptime the expiry (seconds, or a Unix time past 30 days)
     * @param data the value; the request takes over its reference
     * @return the request
     */
    public static TextMemcacheRequest store(TextMemcacheCommand command, String key, long flags, int exptime, ByteBuf data) {
        if (!command.isStorage() || command == TextMemcacheCommand.CAS) {
            throw new IllegalArgumentException("not a storage command: " + command + " (cas has its own factory)");
        }
        return storage(command, key, flags, exptime, 0, data);
    }

    /**
     * A cas: stored only if the item's cas unique is still {@code casUnique}.
     *
     * @param key the key
     * @param flags the flags
     * @param exptime the expiry
     * @param casUnique the value a gets returned
     * @param data the value; the request takes over its reference
     * @return the request
     */
    public static TextMemcacheRequest cas(String key, long flags, int exptime, long casUnique, ByteBuf data) {
        return storage(TextMemcacheCommand.CAS, key, flags, exptime, casUnique, data);
    }

    private static TextMemcacheRequest storage(TextMemcacheCommand command, String key, long flags, int exptime,
                                               long casUnique, ByteBuf data) {
        if (flags < 0 || flags > MAX_FLAGS) {
            throw new IllegalArgumentException("flags are 0 to 2^32 - 1: " + flags);
        }
        return new TextMemcacheRequest(command, List.of(TextWire.checkKey(key)), flags, exptime, casUnique, 0, false, data);
    }

    /**
     * A get, gets, gat or gats of one or more keys.
     *
     * @param command one of the retrieval commands
     * @param exptime the new expiry for gat and gats, ignored by get and gets
     * @param keys the keys
     * @return the request
     */
    public static TextMemcacheRequest retrieve(TextMemcacheCommand command, int exptime, String... keys) {
        if (!command.isRetrieval()) {
            throw new IllegalArgumentException("not a retrieval command: " + command);
        }
        if (keys.length == 0) {
            throw new IllegalArgumentException(command + " needs at least one key");
        }
        for (String k : keys) {
            TextWire.checkKey(k);
        }
        boolean touches = command == TextMemcacheCommand.GAT || command == TextMemcacheCommand.GATS;
        return new TextMemcacheRequest(command, List.of(keys), 0, touches ? exptime : 0, 0, 0, false, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A get of one or more keys.
     *
     * @param keys the keys
     * @return the request
     */
    public static TextMemcacheRequest get(String... keys) {
        return retrieve(TextMemcacheCommand.GET, 0, keys);
    }

    /**
     * A gets (values with their cas unique) of one or more keys.
     *
     * @param keys the keys
     * @return the request
     */
    public static TextMemcacheRequest gets(String... keys) {
        return retrieve(TextMemcacheCommand.GETS, 0, keys);
    }

    /**
     * A delete.
     *
     * @param key the key
     * @return the request
     */
    public static TextMemcacheRequest delete(String key) {
        return keyed(TextMemcacheCommand.DELETE, key, 0, 0);
    }

    /**
     * An incr or decr.
     *
     * @param command {@link TextMemcacheCommand#INCR} or {@link TextMemcacheCommand#DECR}
     * @param key the key
     * @param delta the amount, an unsigned 64-bit value
     * @return the request
     */
    public static TextMemcacheRequest arithmetic(TextMemcacheCommand command, String key, long delta) {
        if (command != TextMemcacheCommand.INCR && command != TextMemcacheCommand.DECR) {
            throw new IllegalArgumentException("not incr or decr: " + command);
        }
        return keyed(command, key, 0, delta);
    }

    /**
     * A touch: a new expiry for a stored item.
     *
     * @param key the key
     * @param exptime the new expiry
     * @return the request
     */
    public static TextMemcacheRequest touch(String key, int exptime) {
        return keyed(TextMemcacheCommand.TOUCH, key, exptime, 0);
    }

    private static TextMemcacheRequest keyed(TextMemcacheCommand command, String key, int exptime, long delta) {
        return new TextMemcacheRequest(command, List.of(TextWire.checkKey(key)), 0, exptime, 0, delta, false,
                Unpooled.EMPTY_BUFFER);
    }

    /** {@return a version request} */
    public static TextMemcacheRequest version() {
        return new TextMemcacheRequest(TextMemcacheCommand.VERSION, List.of(), 0, 0, 0, 0, false, Unpooled.EMPTY_BUFFER);
    }

    /** {@return a quit request} */
    public static TextMemcacheRequest quit() {
        return new TextMemcacheRequest(TextMemcacheCommand.QUIT, List.of(), 0, 0, 0, 0, false, Unpooled.EMPTY_BUFFER);
    }

    /**
     * This request with {@code noreply}: the server answers nothing, not even an error the client
     * could pair with it.
     *
     * @return the same command with noreply set, sharing the data
     */
    public TextMemcacheRequest noreply() {
        if (!command.allowsNoreply()) {
            throw new IllegalStateException(command + " takes no noreply");
        }
        return new TextMemcacheRequest(command, keys, flags, exptime, casUnique, delta, true, data);
    }

    /** {@return the command} */
    public TextMemcacheCommand command() {
        return command;
    }

    /** {@return the first key, or null for version and quit} */
    public String key() {
        return keys.isEmpty() ? null : keys.get(0);
    }

    /** {@return every key: one, or several for a retrieval, none for version and quit} */
    public List<String> keys() {
        return keys;
    }

    /** {@return the flags of a storage command, else 0} */
    public long flags() {
        return flags;
    }

    /** {@return the exptime of a storage command, gat, gats and touch, else 0} */
    public int exptime() {
        return exptime;
    }

    /** {@return the cas unique of a cas, else 0} */
    public long casUnique() {
        return casUnique;
    }

    /** {@return the incr/decr delta, else 0} */
    public long delta() {
        return delta;
    }

    /** {@return true when the server is not to answer} */
    public boolean isNoreply() {
        return noreply;
    }

    /** {@return the data block of a storage command; empty otherwise} */
    @Override
    public ByteBuf content() {
        return data;
    }

    @Override
    public TextMemcacheRequest replace(ByteBuf content) {
        return new TextMemcacheRequest(command, keys, flags, exptime, casUnique, delta, noreply, content);
    }

    @Override
    public TextMemcacheRequest retain() {
        data.retain();
        return this;
    }

    /** Equal commands, keys, numbers and data bytes. */
    @Override
    public boolean equals(Object o) {
        return o instanceof TextMemcacheRequest r && command == r.command && keys.equals(r.keys) && flags == r.flags
                && exptime == r.exptime && casUnique == r.casUnique && delta == r.delta && noreply == r.noreply
                && data.equals(r.data);
    }

    @Override
    public int hashCode() {
        return command.hashCode() * 31 + keys.hashCode();
    }

    @Override
    public String toString() {
        return command.name().toLowerCase(java.util.Locale.ROOT) + keys + (command.isStorage() ? " flags " + flags
                + " exptime " + exptime + " bytes " + data.readableBytes() : "")
                + (command == TextMemcacheCommand.CAS ? " cas " + Long.toUnsignedString(casUnique) : "")
                + (delta != 0 ? " delta " + Long.toUnsignedString(delta) : "") + (noreply ? " noreply" : "");
    }
}
