package io.rill.handler.codec.memcache.binary;

/** The status a response carries where a request carries its vbucket id. */
public final class BinaryMemcacheStatus {

    /** Done. */
    public static final short SUCCESS = 0x00;
    /** No such key. */
    public static final short KEY_NOT_FOUND = 0x01;
    /** The key exists (ADD), or the CAS did not match. */
    public static final short KEY_EXISTS = 0x02;
    /** The value is too large. */
    public static final short VALUE_TOO_LARGE = 0x03;
    /** Invalid arguments. */
    public static final short INVALID_ARGUMENTS = 0x04;
    /** The item was not stored. */
    public static final short NOT_STORED = 0x05;
    /** INCREMENT or DECREMENT on a value that is not a number. */
    public static final short NON_NUMERIC_VALUE = 0x06;
    /** Authentication needed or failed. */
    public static final short AUTH_ERROR = 0x20;
    /** The opcode is not known. */
    public static final short UNKNOWN_COMMAND = 0x81;
    /** The server is out of memory. */
    public static final short OUT_OF_MEMORY = 0x82;

    private BinaryMemcacheStatus() {
    }
}
