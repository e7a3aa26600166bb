package io.rill.handler.codec.haproxy;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A type-length-value field of a version 2 header (spec §2.2). {@link #value} is the raw value; for
 * an SSL TLV ({@link #TYPE_SSL}) the decoder also parses it: {@link #sslClient}, {@link #sslVerify}
 * and the sub-TLVs ({@link #TYPE_SSL_VERSION}, {@link #TYPE_SSL_CN}, ...) in {@link #subTlvs}.
 *
 * @param type    the type byte
 * @param value   the value bytes (at most 65535); not copied, do not change them
 * @param subTlvs the sub-TLVs of an SSL TLV, empty for any other
 */
public record HAProxyTlv(int type, byte[] value, List<HAProxyTlv> subTlvs) {

    /** Application-Layer Protocol Negotiation name, e.g. {@code h2}. */
    public static final int TYPE_ALPN = 0x01;
    /** The host name the client asked for (SNI). */
    public static final int TYPE_AUTHORITY = 0x02;
    /** A CRC32c of the whole header, checked by the decoder and filled in by the encoder. */
    public static final int TYPE_CRC32C = 0x03;
    /** Padding, to be ignored. */
    public static final int TYPE_NOOP = 0x04;
    /** An opaque connection id of at most 128 bytes. */
    public static final int TYPE_UNIQUE_ID = 0x05;
    /** TLS information: client flags, verify result, sub-TLVs. */
    public static final int TYPE_SSL = 0x20;
    /** Sub-TLV of SSL: the TLS version, e.g. {@code TLSv1.3}. */
    public static final int TYPE_SSL_VERSION = 0x21;
    /** Sub-TLV of SSL: the client certificate's common name. */
    public static final int TYPE_SSL_CN = 0x22;
    /** Sub-TLV of SSL: the cipher. */
    public static final int TYPE_SSL_CIPHER = 0x23;
    /** Sub-TLV of SSL: the certificate's signature algorithm. */
    public static final int TYPE_SSL_SIG_ALG = 0x24;
    /** Sub-TLV of SSL: the certificate's key algorithm. */
    public static final int TYPE_SSL_KEY_ALG = 0x25;
    /** The network namespace. */
    public static final int TYPE_NETNS = 0x30;

    /**
     * Checks the fields.
     *
     * @param type    the type byte
     * @param value   the value bytes (at most 65535); not copied, do not change them
     * @param subTlvs the sub-TLVs of an SSL TLV, empty for any other
     */
    public HAProxyTlv {
        if (type < 0 || type > 0xFF) {
            throw new IllegalArgumentException("type: " + type + " (expected: 0..255)");
        }
        if (value.length > 0xFFFF) {
            throw new IllegalArgumentException("value: " + value.length + " bytes (expected: at most 65535)");
        }
        subTlvs = List.copyOf(subTlvs);
    }

    /**
     * A TLV without sub-TLVs.
     *
     * @param type  the type byte
     * @param value the value
     */
    public HAProxyTlv(int type, byte[] value) {
        this(type, value, List.of());
    }

    /**
     * An SSL TLV: its value is the client byte, the 32-bit verify result and the sub-TLVs.
     *
     * @param client  the PP2_CLIENT_* bits (0x01 SSL, 0x02 certificate on this connection, 0x04 in the session)
     * @param verify  0 if the client certificate was verified, non-zero otherwise
     * @param subTlvs the sub-TLVs
     * @return the TLV
     */
    public static HAProxyTlv ssl(int client, long verify, List<HAProxyTlv> subTlvs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(client);
        out.write((int) (verify >>> 24));
        out.write((int) (verify >>> 16));
        out.write((int) (verify >>> 8));
        out.write((int) verify);
        for (HAProxyTlv sub : subTlvs) {
            out.write(sub.type());
            out.write(sub.value().length >>> 8);
            out.write(sub.value().length);
            out.writeBytes(sub.value());
        }
        return new HAProxyTlv(TYPE_SSL, out.toByteArray(), subTlvs);
    }

    /** {@return the PP2_CLIENT_* byte of an SSL TLV} */
    public int sslClient() {
        checkSsl();
        return value[0] & 0xFF;
    }

    /** {@return the verify field of an SSL TLV: 0 when the client certificate was verified} */
    public long sslVerify() {
        checkSsl();
        return ((value[1] & 0xFFL) << 24) | ((value[2] & 0xFF) << 16) | ((value[3] & 0xFF) << 8) | (value[4] & 0xFF);
    }

    private void checkSsl() {
        if (type != TYPE_SSL) {
            throw new IllegalStateException(String.format("not an SSL TLV (type 0x%02x)", type));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HAProxyTlv t && t.type == type && Arrays.equals(t.value, value) && t.subTlvs.equals(subTlvs);
    }

    @Override
    public int hashCode() {
        return type * 31 + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return String.format("TLV(0x%02x, %s%s)", type, HexFormat.of().formatHex(value),
                subTlvs.isEmpty() ? "" : ", " + subTlvs);
    }
}
