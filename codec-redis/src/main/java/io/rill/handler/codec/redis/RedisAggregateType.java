package io.rill.handler.codec.redis;

/**
 * The kinds of RESP aggregate, each with its type byte. A map and an attribute count pairs on the
 * wire, so they hold twice as many elements as their header says.
 */
public enum RedisAggregateType {
    /** {@code *}: RESP2 and RESP3 array, the form of every command. */
    ARRAY('*', 1),
    /** {@code %}: RESP3 map, key and value alternating. */
    MAP('%', 2),
    /** {@code ~}: RESP3 set. */
    SET('~', 1),
    /** {@code >}: RESP3 push, data the server sends unasked (pub/sub messages, invalidations). */
    PUSH('>', 1),
    /** {@code |}: RESP3 attribute, a map of auxiliary data that precedes the reply it describes. */
    ATTRIBUTE('|', 2);

    private final byte typeByte;
    private final int elementsPerEntry;

    RedisAggregateType(char typeByte, int elementsPerEntry) {
        this.typeByte = (byte) typeByte;
        this.elementsPerEntry = elementsPerEntry;
    }

    /** {@return the byte that starts this aggregate on the wire} */
    public byte typeByte() {
        return typeByte;
    }

    /** {@return 2 for a map or an attribute (the wire counts pairs), else 1} */
    public int elementsPerEntry() {
        return elementsPerEntry;
    }
}
