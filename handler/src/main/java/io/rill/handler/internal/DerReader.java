package io.rill.handler.internal;

import java.math.BigInteger;
import java.security.GeneralSecurityException;

/**
 * Reads ASN.1 DER (ITU-T X.690 §8, §10): a sequence of tag-length-value elements, where a
 * constructed element (SEQUENCE, SET, explicit tags) holds more elements. Only what key and
 * certificate files need: single-byte tags, definite lengths up to 2^31-1, no indefinite form.
 *
 * <pre>
 *   tag  | length                          | contents
 *   0x30 | 0x82 0x01 0x0A  (long form: 266) | 266 bytes ...
 * </pre>
 *
 * A reader covers {@code [position, end)} of a shared array; {@link #sequence()} returns a reader
 * over the element's contents and moves this one past it. Every length is checked against the
 * enclosing element, so a lying length fails with a {@link GeneralSecurityException} quoting it.
 */
public final class DerReader {

    public static final int TAG_BOOLEAN = 0x01;
    public static final int TAG_INTEGER = 0x02;
    public static final int TAG_BIT_STRING = 0x03;
    public static final int TAG_OCTET_STRING = 0x04;
    public static final int TAG_NULL = 0x05;
    public static final int TAG_OID = 0x06;
    public static final int TAG_SEQUENCE = 0x30;
    public static final int TAG_SET = 0x31;

    private final byte[] data;
    /** Next element's first byte; never beyond {@link #end}. */
    private int position;
    private final int end;

    public DerReader(byte[] data) {
        this(data, 0, data.length);
    }

    private DerReader(byte[] data, int position, int end) {
        this.data = data;
        this.position = position;
        this.end = end;
    }

    public boolean hasMore() {
        return position < end;
    }

    /** The tag of the next element, or -1 at the end. */
    public int peekTag() {
        return position < end ? data[position] & 0xFF : -1;
    }

    /** Enters the next element, which must be a SEQUENCE. */
    public DerReader sequence() throws GeneralSecurityException {
        return constructed(TAG_SEQUENCE);
    }

    /** Enters the next element, which must be constructed with {@code tag} (e.g. 0xA0 for [0]). */
    public DerReader constructed(int tag) throws GeneralSecurityException {
        int[] span = element(tag);
        return new DerReader(data, span[0], span[1]);
    }

    public BigInteger integer() throws GeneralSecurityException {
        int at = position;
        byte[] contents = contents(TAG_INTEGER);
        if (contents.length == 0) {
            // X.690 §8.3.1: one or more octets. BigInteger would throw NumberFormatException,
            // which a caller that expects a key problem does not catch.
            throw new GeneralSecurityException("DER: empty INTEGER at offset " + at);
        }
        return new BigInteger(contents);
    }

    public byte[] octetString() throws GeneralSecurityException {
        return contents(TAG_OCTET_STRING);
    }

    /** Dotted form of the next OBJECT IDENTIFIER (X.690 §8.19). */
    public String oid() throws GeneralSecurityException {
        byte[] bytes = contents(TAG_OID);
        if (bytes.length == 0) {
            throw new GeneralSecurityException("DER: empty OBJECT IDENTIFIER");
        }
        StringBuilder sb = new StringBuilder();
        long value = 0;
        boolean first = true;
        for (byte b : bytes) {
            if (value > (Long.MAX_VALUE >> 7)) {
                throw new GeneralSecurityException("DER: OBJECT IDENTIFIER arc too large");
            }
            value = (value << 7) | (b & 0x7F);
            if ((b & 0x80) == 0) {
                if (first) { // the first subidentifier packs two arcs: 40 * X + Y
                    int x = value < 80 ? (int) (value / 40) : 2;
                    sb.append(x).append('.').append(value - 40L * x);
                    first = false;
                } else {
                    sb.append('.').append(value);
                }
                value = 0;
            }
        }
        if ((bytes[bytes.length - 1] & 0x80) != 0) {
            // X.690 §8.19.2: a subidentifier's last octet has bit 8 clear. Without this check the
            // cut arc was dropped, and 06 01 80 read as "", which no caller can use.
            throw new GeneralSecurityException("DER: OBJECT IDENTIFIER ends inside a subidentifier");
        }
        return sb.toString();
    }

    /** The contents of the next element, whatever its tag. */
    public byte[] contents(int tag) throws GeneralSecurityException {
        int[] span = element(tag);
        byte[] out = new byte[span[1] - span[0]];
        System.arraycopy(data, span[0], out, 0, out.length);
        return out;
    }

    /** The whole encoding (tag, length and contents) of the next element. */
    public byte[] encoded() throws GeneralSecurityException {
        int start = position;
        element(peekTag());
        byte[] out = new byte[position - start];
        System.arraycopy(data, start, out, 0, out.length);
        return out;
    }

    public void skip() throws GeneralSecurityException {
        element(peekTag());
    }

    /** Moves past the next element, which must have {@code tag}; returns its contents' [start, end). */
    private int[] element(int tag) throws GeneralSecurityException {
        if (position + 2 > end) {
            throw new GeneralSecurityException("DER: truncated element at offset " + position);
        }
        int actual = data[position] & 0xFF;
        if (actual != tag) {
            throw new GeneralSecurityException(String.format(
                    "DER: expected tag 0x%02X at offset %d, found 0x%02X", tag, position, actual));
        }
        int p = position + 1;
        int length = data[p++] & 0xFF;
        if (length > 0x7F) {
            int count = length & 0x7F;
            if (count == 0 || count > 4) {
                throw new GeneralSecurityException("DER: unsupported length form 0x"
                        + Integer.toHexString(length) + " at offset " + position);
            }
            if (p + count > end) {
                throw new GeneralSecurityException("DER: truncated length at offset " + position);
            }
            long l = 0;
            for (int i = 0; i < count; i++) {
                l = (l << 8) | (data[p++] & 0xFF);
            }
            if (l > Integer.MAX_VALUE) {
                throw new GeneralSecurityException("DER: length " + l + " at offset " + position);
            }
            length = (int) l;
        }
        if (length > end - p) {
            throw new GeneralSecurityException("DER: length " + length + " at offset " + position
                    + " runs past its enclosing element (" + (end - p) + " bytes left)");
        }
        position = p + length;
        return new int[] {p, p + length};
    }
}
