package io.rill.handler.codec.memcache.binary;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;

/**
 * One binary-protocol request or response, whole: the header's fields, the extras and the key
 * (small, so held as arrays) and the value (held as a buffer, released with the message).
 * Built with {@link #request} or {@link #response}; the decoders make them from the wire.
 */
public final class BinaryMemcacheMessage implements ByteBufHolder {

    /** The magic byte of a request. */
    public static final byte REQUEST_MAGIC = (byte) 0x80;
    /** The magic byte of a response. */
    public static final byte RESPONSE_MAGIC = (byte) 0x81;
    /** memcached's own key limit. */
    public static final int MAX_KEY_LENGTH = 250;
    /** The extras length is one byte. */
    public static final int MAX_EXTRAS_LENGTH = 255;

    private final byte magic;
    private final byte opcode;
    private final byte dataType;
    private final short statusOrVbucket;
    private final int opaque;
    private final long cas;
    private final byte[] extras;
    private final byte[] key;
    private final ByteBuf value;

    BinaryMemcacheMessage(byte magic, byte opcode, byte dataType, short statusOrVbucket, int opaque, long cas,
                          byte[] extras, byte[] key, ByteBuf value) {
        this.magic = magic;
        this.opcode = opcode;
        this.dataType = dataType;
        this.statusOrVbucket = statusOrVbucket;
        this.opaque = opaque;
        this.cas = cas;
        this.extras = extras;
        this.key = key;
        this.value = value;
    }

    /**
     * Starts a request.
     *
     * @param opcode one of {@link BinaryMemcacheOpcode}
     * @return a builder
     */
    public static Builder request(byte opcode) {
        return new Builder(REQUEST_MAGIC, opcode, (short) 0);
    }

    /**
     * Starts a response.
     *
     * @param opcode the request's opcode
     * @param status one of {@link BinaryMemcacheStatus}
     * @return a builder
     */
    public static Builder response(byte opcode, short status) {
        return new Builder(RESPONSE_MAGIC, opcode, status);
    }

    /** {@return true for a request, false for a response} */
    public boolean isRequest() {
        return magic == REQUEST_MAGIC;
    }

    /** {@return the opcode} */
    public byte opcode() {
        return opcode;
    }

    /** {@return the data type byte (0: raw bytes)} */
    public byte dataType() {
        return dataType;
    }

    /** {@return a response's status (see {@link BinaryMemcacheStatus}); a request's vbucket id} */
    public short status() {
        return statusOrVbucket;
    }

    /** {@return the value the client chose, echoed in the response} */
    public int opaque() {
        return opaque;
    }

    /** {@return the compare-and-swap value, 0 for none} */
    public long cas() {
        return cas;
    }

    /** {@return a copy of the extras} */
    public byte[] extras() {
        return extras.clone();
    }

    /** {@return a copy of the key's bytes} */
    public byte[] key() {
        return key.clone();
    }

    /** {@return the key as text, each byte one ISO-8859-1 character} */
    public String keyString() {
        return new String(key, StandardCharsets.ISO_8859_1);
    }

    int extrasLength() {
        return extras.length;
    }

    int keyLength() {
        return key.length;
    }

    byte magic() {
        return magic;
    }

    byte[] extrasArray() {
        return extras;
    }

    byte[] keyArray() {
        return key;
    }

    /** {@return the value; empty when there is none} */
    @Override
    public ByteBuf content() {
        return value;
    }

    @Override
    public BinaryMemcacheMessage replace(ByteBuf content) {
        return new BinaryMemcacheMessage(magic, opcode, dataType, statusOrVbucket, opaque, cas, extras, key, content);
    }

    @Override
    public BinaryMemcacheMessage retain() {
        value.retain();
        return this;
    }

    /** Equal header fields, extras, key and value bytes. */
    @Override
    public boolean equals(Object o) {
        return o instanceof BinaryMemcacheMessage m && magic == m.magic && opcode == m.opcode && dataType == m.dataType
                && statusOrVbucket == m.statusOrVbucket && opaque == m.opaque && cas == m.cas
                && Arrays.equals(extras, m.extras) && Arrays.equals(key, m.key) && value.equals(m.value);
    }

    @Override
    public int hashCode() {
        return ((opcode * 31 + statusOrVbucket) * 31 + opaque) * 31 + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return (isRequest() ? "request" : "response") + "(opcode 0x" + Integer.toHexString(opcode & 0xFF)
                + (isRequest() ? ", vbucket " : ", status 0x") + (isRequest() ? statusOrVbucket : Integer.toHexString(statusOrVbucket & 0xFFFF))
                + ", opaque " + opaque + ", cas " + cas + ", extras " + ByteBufUtil.hexDump(extras) + ", key "
                + keyString() + ", value " + value.readableBytes() + " bytes)";
    }

    private static final byte[] NONE = new byte[0];

    /** Fields of a message to build; not thread-safe, used once. */
    public static final class Builder {
        private final byte magic;
        private final byte opcode;
        private short statusOrVbucket;
        private byte dataType;
        private int opaque;
        private long cas;
        private byte[] extras = NONE;
        private byte[] key = NONE;
        private ByteBuf value = Unpooled.EMPTY_BUFFER;

        private Builder(byte magic, byte opcode, short status) {
            this.magic = magic;
            this.opcode = opcode;
            this.statusOrVbucket = status;
        }

        /**
         * The key, as ISO-8859-1 bytes.
         *
         * @param key at most 250 bytes
         * @return this builder
         */
        public Builder key(String key) {
            byte[] bytes = key.getBytes(StandardCharsets.ISO_8859_1);
            checkKey(bytes);
            this.key = bytes; // a fresh array already: no copy
            return this;
        }

        /**
         * The key.
         *
         * @param key at most 250 bytes; copied
         * @return this builder
         */
        public Builder key(byte[] key) {
            checkKey(key);
            this.key = key.clone();
            return this;
        }

        private static void checkKey(byte[] key) {
            if (key.length > MAX_KEY_LENGTH) {
                throw new IllegalArgumentException("a memcache key is at most " + MAX_KEY_LENGTH + " bytes: " + key.length);
            }
        }

        /**
         * The extras (for SET: flags and expiry, 4 bytes each).
         *
         * @param extras at most 255 bytes; copied
         * @return this builder
         */
        public Builder extras(byte[] extras) {
            if (extras.length > MAX_EXTRAS_LENGTH) {
                throw new IllegalArgumentException("memcache extras are at most " + MAX_EXTRAS_LENGTH + " bytes: "
                        + extras.length);
            }
            this.extras = extras.clone();
            return this;
        }

        /**
         * The value.
         *
         * @param value owned by the message from now on
         * @return this builder
         */
        public Builder value(ByteBuf value) {
            if (value == null) {
                throw new NullPointerException("value");
            }
            this.value = value;
            return this;
        }

        /**
         * A value the server echoes, to match responses to requests.
         *
         * @param opaque any value
         * @return this builder
         */
        public Builder opaque(int opaque) {
            this.opaque = opaque;
            return this;
        }

        /**
         * The compare-and-swap value.
         *
         * @param cas 0 for none
         * @return this builder
         */
        public Builder cas(long cas) {
            this.cas = cas;
            return this;
        }

        /**
         * A request's vbucket id.
         *
         * @param vbucket the id
         * @return this builder
         */
        public Builder vbucket(short vbucket) {
            if (magic != REQUEST_MAGIC) {
                throw new IllegalStateException("a response carries a status, not a vbucket");
            }
            this.statusOrVbucket = vbucket;
            return this;
        }

        /**
         * The data type byte.
         *
         * @param dataType 0 for raw bytes
         * @return this builder
         */
        public Builder dataType(byte dataType) {
            this.dataType = dataType;
            return this;
        }

        /**
         * Builds the message.
         *
         * @return the message, owning the value
         */
        public BinaryMemcacheMessage build() {
            return new BinaryMemcacheMessage(magic, opcode, dataType, statusOrVbucket, opaque, cas, extras, key, value);
        }
    }
}
