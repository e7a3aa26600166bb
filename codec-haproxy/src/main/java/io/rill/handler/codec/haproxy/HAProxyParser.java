package io.rill.handler.codec.haproxy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import io.rill.buffer.ByteBuf;

/**
 * Parses one PROXY header from the start of a buffer, consuming it, or returns null (consuming
 * nothing) when more bytes are needed. A header is small and bounded, so each attempt starts over.
 *
 * <pre>
 *   v1: "PROXY" SP ("TCP4" | "TCP6") SP src SP dst SP sport SP dport CRLF    (at most 107 bytes)
 *       "PROXY" SP "UNKNOWN" [anything] CRLF
 *   v2: sig(12) | ver:4 cmd:4 | family:4 transport:4 | len(2) | addresses | TLVs   (len bytes after 16)
 *       TLV: type(1) | length(2) | value;  SSL value: client(1) | verify(4) | sub-TLVs
 * </pre>
 */
final class HAProxyParser {

    static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    static final int V1_MAX_LENGTH = 107;
    private static final byte[] V1_PREFIX = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    private static final int UNIQUE_ID_MAX = 128;

    private HAProxyParser() {
    }

    static HAProxyMessage tryParse(ByteBuf in, int maxHeaderLength) {
        if (!in.isReadable()) {
            return null;
        }
        int first = in.getUnsignedByte(in.readerIndex());
        if (first == 'P') {
            return v1(in);
        }
        if (first == 0x0D) {
            return v2(in, maxHeaderLength);
        }
        throw new HAProxyProtocolException(String.format("not a PROXY protocol header (first byte 0x%02x)", first));
    }

    // ---------------------------------------------------------------- version 1

    private static HAProxyMessage v1(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        for (int i = 0; i < Math.min(readable, V1_PREFIX.length); i++) {
            if (in.getByte(start + i) != V1_PREFIX[i]) {
                throw new HAProxyProtocolException("not a PROXY protocol header: a version 1 line starts with \"PROXY \"");
            }
        }
        int lf = in.indexOf(start, start + Math.min(readable, V1_MAX_LENGTH), (byte) '\n');
        if (lf < 0) {
            if (readable >= V1_MAX_LENGTH) {
                throw new HAProxyHeaderTooLongException("PROXY v1 line longer than " + V1_MAX_LENGTH
                        + " bytes without its CRLF (the spec's maximum)");
            }
            return null;
        }
        if (lf == start || in.getByte(lf - 1) != '\r') {
            throw new HAProxyProtocolException("PROXY v1 line ends with a bare LF (expected: CRLF)");
        }
        for (int i = start; i < lf - 1; i++) {
            int b = in.getUnsignedByte(i);
            if (b < 0x20 || b > 0x7E) {
                throw new HAProxyProtocolException(String.format("PROXY v1 line holds byte 0x%02x at index %d", b,
                        i - start));
            }
        }
        String line = in.toString(start, lf - 1 - start, StandardCharsets.US_ASCII);
        in.readerIndex(lf + 1);
        String[] f = line.split(" ", -1);
        if (f.length >= 2 && f[1].equals("UNKNOWN")) {
            // §2.1: after UNKNOWN the receiver ignores everything up to the CRLF.
            return new HAProxyMessage(HAProxyProtocolVersion.V1, HAProxyCommand.PROXY, HAProxyProxiedProtocol.UNKNOWN,
                    null, null, 0, 0, List.of());
        }
        if (f.length != 6) {
            throw new HAProxyProtocolException("PROXY v1 line has " + f.length
                    + " space-separated fields (expected: 6, or UNKNOWN)");
        }
        HAProxyProxiedProtocol protocol = switch (f[1]) {
            case "TCP4" -> HAProxyProxiedProtocol.TCP4;
            case "TCP6" -> HAProxyProxiedProtocol.TCP6;
            default -> throw new HAProxyProtocolException("PROXY v1: unknown protocol \"" + f[1]
                    + "\" (expected: TCP4, TCP6 or UNKNOWN)");
        };
        boolean v6 = protocol == HAProxyProxiedProtocol.TCP6;
        for (int i = 2; i <= 3; i++) {
            byte[] address = v6 ? HAProxyAddresses.ipv6(f[i]) : HAProxyAddresses.ipv4(f[i]);
            if (address == null) {
                throw new HAProxyProtocolException("PROXY v1: \"" + f[i] + "\" is not an " + (v6 ? "IPv6" : "IPv4")
                        + " address");
            }
            f[i] = v6 ? HAProxyAddresses.formatIpv6(address) : HAProxyAddresses.formatIpv4(address);
        }
        Integer sourcePort = HAProxyAddresses.decimal(f[4], 0xFFFF);
        Integer destinationPort = HAProxyAddresses.decimal(f[5], 0xFFFF);
        if (sourcePort == null || destinationPort == null) {
            throw new HAProxyProtocolException("PROXY v1: ports \"" + f[4] + "\", \"" + f[5]
                    + "\" (expected: 0..65535, no leading zeros)");
        }
        return HAProxyMessage.v1(protocol, f[2], f[3], sourcePort, destinationPort);
    }

    // ---------------------------------------------------------------- version 2

    private static HAProxyMessage v2(ByteBuf in, int maxHeaderLength) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        for (int i = 0; i < Math.min(readable, V2_SIGNATURE.length); i++) {
            if (in.getByte(start + i) != V2_SIGNATURE[i]) {
                throw new HAProxyProtocolException("not a PROXY protocol header: bad version 2 signature");
            }
        }
        if (readable < 16) {
            return null;
        }
        int versionCommand = in.getUnsignedByte(start + 12);
        if (versionCommand >>> 4 != 2) {
            throw new HAProxyProtocolException("PROXY v2: version " + (versionCommand >>> 4) + " (expected: 2)");
        }
        HAProxyCommand command = switch (versionCommand & 0x0F) {
            case 0 -> HAProxyCommand.LOCAL;
            case 1 -> HAProxyCommand.PROXY;
            default -> throw new HAProxyProtocolException("PROXY v2: unknown command " + (versionCommand & 0x0F));
        };
        int familyByte = in.getUnsignedByte(start + 13);
        int length = in.getUnsignedShort(start + 14);
        if (16 + length > maxHeaderLength) {
            throw new HAProxyHeaderTooLongException("PROXY v2 header of " + (16 + length) + " bytes is longer than "
                    + maxHeaderLength + " (maxHeaderLength)");
        }
        if (readable < 16 + length) {
            return null;
        }
        int body = start + 16;
        int end = body + length;
        if (command == HAProxyCommand.LOCAL) {
            // §2.2: for LOCAL the receiver ignores the address block and whatever follows it.
            in.readerIndex(end);
            return new HAProxyMessage(HAProxyProtocolVersion.V2, command, HAProxyProxiedProtocol.UNKNOWN, null, null,
                    0, 0, List.of());
        }
        HAProxyProxiedProtocol protocol = HAProxyProxiedProtocol.of(familyByte);
        if (length < protocol.addressLength()) {
            throw new HAProxyProtocolException("PROXY v2: length " + length + " is shorter than the " + protocol
                    + " address block (" + protocol.addressLength() + " bytes)");
        }
        String source = null;
        String destination = null;
        int sourcePort = 0;
        int destinationPort = 0;
        if (protocol.isIpv4() || protocol.isIpv6()) {
            int size = protocol.isIpv4() ? 4 : 16;
            byte[] a = new byte[size];
            in.getBytes(body, a);
            source = size == 4 ? HAProxyAddresses.formatIpv4(a) : HAProxyAddresses.formatIpv6(a);
            in.getBytes(body + size, a);
            destination = size == 4 ? HAProxyAddresses.formatIpv4(a) : HAProxyAddresses.formatIpv6(a);
            sourcePort = in.getUnsignedShort(body + 2 * size);
            destinationPort = in.getUnsignedShort(body + 2 * size + 2);
        } else if (protocol.isUnix()) {
            source = unixPath(in, body);
            destination = unixPath(in, body + HAProxyAddresses.UNIX_PATH_BYTES);
        }
        List<HAProxyTlv> tlvs = tlvs(in, body + protocol.addressLength(), end, "TLV", true);
        HAProxyTlv crc = null;
        for (HAProxyTlv tlv : tlvs) {
            if (tlv.type() == HAProxyTlv.TYPE_CRC32C) {
                crc = tlv;
            }
        }
        if (crc != null) {
            checkCrc(in, start, end, body + protocol.addressLength(), crc);
        }
        in.readerIndex(end);
        return new HAProxyMessage(HAProxyProtocolVersion.V2, command, protocol, source, destination, sourcePort,
                destinationPort, tlvs);
    }

    private static String unixPath(ByteBuf in, int index) {
        int nul = in.bytesBefore(index, HAProxyAddresses.UNIX_PATH_BYTES, (byte) 0);
        if (nul < 0) {
            throw new HAProxyProtocolException("PROXY v2: a Unix socket path fills all 108 bytes without a NUL");
        }
        byte[] path = new byte[nul];
        in.getBytes(index, path);
        String s = new String(path, StandardCharsets.UTF_8);
        if (s.getBytes(StandardCharsets.UTF_8).length != nul) {
            throw new HAProxyProtocolException("PROXY v2: a Unix socket path is not valid UTF-8");
        }
        return s;
    }

    /** The TLVs in [from, to), which must fill it exactly; SSL values parsed one level down. */
    private static List<HAProxyTlv> tlvs(ByteBuf in, int from, int to, String what, boolean top) {
        List<HAProxyTlv> tlvs = new ArrayList<>();
        int at = from;
        while (at < to) {
            if (to - at < 3) {
                throw new HAProxyProtocolException("PROXY v2: " + (to - at) + " bytes left, too few for a " + what
                        + " header (3)");
            }
            int type = in.getUnsignedByte(at);
            int length = in.getUnsignedShort(at + 1);
            if (length > to - at - 3) {
                throw new HAProxyProtocolException(String.format("PROXY v2: %s type 0x%02x of length %d runs past "
                        + "the header (%d bytes left)", what, type, length, to - at - 3));
            }
            byte[] value = new byte[length];
            in.getBytes(at + 3, value);
            List<HAProxyTlv> sub = List.of();
            if (top && type == HAProxyTlv.TYPE_SSL) {
                if (length < 5) {
                    throw new HAProxyProtocolException("PROXY v2: SSL TLV of " + length
                            + " bytes, too short for its client and verify fields (5)");
                }
                sub = tlvs(in, at + 3 + 5, at + 3 + length, "SSL sub-TLV", false);
            } else if (top && type == HAProxyTlv.TYPE_CRC32C && length != 4) {
                throw new HAProxyProtocolException("PROXY v2: CRC32c TLV of " + length + " bytes (expected: 4)");
            } else if (top && type == HAProxyTlv.TYPE_UNIQUE_ID && length > UNIQUE_ID_MAX) {
                throw new HAProxyProtocolException("PROXY v2: unique id TLV of " + length + " bytes (at most "
                        + UNIQUE_ID_MAX + ")");
            }
            tlvs.add(new HAProxyTlv(type, value, sub));
            at += 3 + length;
        }
        return tlvs;
    }

    /** §2.2.5: CRC32c over the whole header with the checksum's own four bytes taken as zero. */
    private static void checkCrc(ByteBuf in, int start, int end, int tlvStart, HAProxyTlv crc) {
        byte[] header = new byte[end - start];
        in.getBytes(start, header);
        int at = tlvStart - start;
        while (header[at] != HAProxyTlv.TYPE_CRC32C) {
            at += 3 + (((header[at + 1] & 0xFF) << 8) | (header[at + 2] & 0xFF));
        }
        for (int i = 0; i < 4; i++) {
            header[at + 3 + i] = 0;
        }
        long expected = ((crc.value()[0] & 0xFFL) << 24) | ((crc.value()[1] & 0xFF) << 16)
                | ((crc.value()[2] & 0xFF) << 8) | (crc.value()[3] & 0xFF);
        CRC32C checksum = new CRC32C();
        checksum.update(header);
        if (checksum.getValue() != expected) {
            throw new HAProxyProtocolException(String.format("PROXY v2: CRC32c 0x%08x does not match the header's "
                    + "0x%08x", expected, checksum.getValue()));
        }
    }

    /** Fills the CRC32c TLV at {@code crcValueIndex} of a header just written at [start, end). Used by the encoder. */
    static void fillCrc(ByteBuf out, int start, int end, int crcValueIndex) {
        byte[] header = new byte[end - start];
        out.getBytes(start, header);
        CRC32C checksum = new CRC32C();
        checksum.update(header);
        out.setInt(crcValueIndex, (int) checksum.getValue());
    }
}
