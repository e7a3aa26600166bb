package io.rill.handler.internal;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Writes ASN.1 DER (ITU-T X.690 §10) bottom-up: each method returns one complete element, and
 * constructed elements are made of already-encoded children. Certificates and key wrappers are
 * a few hundred bytes, so building arrays eagerly is simpler than a streaming writer and costs
 * nothing that matters.
 */
public final class DerWriter {

    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");

    private DerWriter() {
    }

    public static byte[] element(int tag, byte[] contents) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(contents.length + 6);
        out.write(tag);
        int length = contents.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(contents);
        return out.toByteArray();
    }

    public static byte[] sequence(byte[]... children) {
        return element(DerReader.TAG_SEQUENCE, concat(children));
    }

    public static byte[] set(byte[]... children) {
        return element(DerReader.TAG_SET, concat(children));
    }

    /** A context-specific constructed tag {@code [n]} around one element (explicit tagging). */
    public static byte[] explicit(int n, byte[] child) {
        return element(0xA0 | n, child);
    }

    /** A context-specific primitive tag {@code [n]} replacing the element's own (implicit tagging). */
    public static byte[] implicit(int n, byte[] contents) {
        return element(0x80 | n, contents);
    }

    public static byte[] integer(BigInteger value) {
        return element(DerReader.TAG_INTEGER, value.toByteArray());
    }

    public static byte[] integer(long value) {
        return integer(BigInteger.valueOf(value));
    }

    public static byte[] bool(boolean value) {
        return element(DerReader.TAG_BOOLEAN, new byte[] {value ? (byte) 0xFF : 0});
    }

    public static byte[] nul() {
        return new byte[] {DerReader.TAG_NULL, 0};
    }

    public static byte[] octetString(byte[] value) {
        return element(DerReader.TAG_OCTET_STRING, value);
    }

    /** A BIT STRING of whole bytes (no unused bits), as keys and signatures are. */
    public static byte[] bitString(byte[] value) {
        byte[] contents = new byte[value.length + 1];
        System.arraycopy(value, 0, contents, 1, value.length);
        return element(DerReader.TAG_BIT_STRING, contents);
    }

    public static byte[] utf8String(String value) {
        return element(0x0C, value.getBytes(StandardCharsets.UTF_8));
    }

    /** UTCTime for years 1950-2049, GeneralizedTime otherwise (RFC 5280 §4.1.2.5). */
    public static byte[] time(ZonedDateTime time) {
        ZonedDateTime utc = time.withZoneSameInstant(ZoneOffset.UTC);
        int year = utc.getYear();
        if (year >= 1950 && year < 2050) {
            return element(0x17, UTC_TIME.format(utc).getBytes(StandardCharsets.US_ASCII));
        }
        return element(0x18, GENERALIZED_TIME.format(utc).getBytes(StandardCharsets.US_ASCII));
    }

    /** An OBJECT IDENTIFIER from its dotted form (X.690 §8.19). */
    public static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        if (arcs.length < 2) {
            throw new IllegalArgumentException("OID needs at least two arcs: " + dotted);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeBase128(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            writeBase128(out, Long.parseLong(arcs[i]));
        }
        return element(DerReader.TAG_OID, out.toByteArray());
    }

    private static void writeBase128(ByteArrayOutputStream out, long value) {
        int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 6) / 7);
        for (int i = groups - 1; i >= 0; i--) {
            int b = (int) (value >>> (7 * i)) & 0x7F;
            out.write(i == 0 ? b : b | 0x80);
        }
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
