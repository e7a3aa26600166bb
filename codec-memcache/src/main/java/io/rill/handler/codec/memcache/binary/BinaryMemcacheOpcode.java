package io.rill.handler.codec.memcache.binary;

/** The binary protocol's opcodes (memcached's protocol_binary.h), as the byte in the header. */
public final class BinaryMemcacheOpcode {

    /** Gets a value. */
    public static final byte GET = 0x00;
    /** Sets a value (extras: flags and expiry). */
    public static final byte SET = 0x01;
    /** Sets a value only if the key is absent. */
    public static final byte ADD = 0x02;
    /** Sets a value only if the key is present. */
    public static final byte REPLACE = 0x03;
    /** Deletes a key. */
    public static final byte DELETE = 0x04;
    /** Adds to a counter (extras: delta, initial value, expiry). */
    public static final byte INCREMENT = 0x05;
    /** Subtracts from a counter. */
    public static final byte DECREMENT = 0x06;
    /** Closes the connection once answered. */
    public static final byte QUIT = 0x07;
    /** Removes every item. */
    public static final byte FLUSH = 0x08;
    /** GET that answers only a hit. */
    public static final byte GETQ = 0x09;
    /** Does nothing; its answer ends a run of quiet requests. */
    public static final byte NOOP = 0x0a;
    /** The server's version. */
    public static final byte VERSION = 0x0b;
    /** GET whose answer carries the key. */
    public static final byte GETK = 0x0c;
    /** GETK that answers only a hit. */
    public static final byte GETKQ = 0x0d;
    /** Appends to a value. */
    public static final byte APPEND = 0x0e;
    /** Prepends to a value. */
    public static final byte PREPEND = 0x0f;
    /** Statistics, one response per statistic and an empty one at the end. */
    public static final byte STAT = 0x10;
    /** SET that answers only a failure. */
    public static final byte SETQ = 0x11;
    /** Changes a key's expiry. */
    public static final byte TOUCH = 0x1c;
    /** Gets a value and changes its expiry. */
    public static final byte GAT = 0x1d;

    private BinaryMemcacheOpcode() {
    }
}
