package io.rill.handler.codec.socks;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;

/** Field rules shared by the SOCKS4 and SOCKS5 messages: ports, host names and address literals. */
final class SocksWire {

    /** A SOCKS5 domain name has a one-byte length; SOCKS4a's is capped at the same by default. */
    static final int MAX_HOSTNAME_LENGTH = 255;

    private SocksWire() {
    }

    static int checkPort(int port) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port: " + port + " (expected: 0..65535)");
        }
        return port;
    }

    /** Checks a host name for a message being built: 1 to 255 printable ASCII bytes. */
    static String checkHostname(String host) {
        if (host == null) {
            throw new NullPointerException("host");
        }
        if (host.isEmpty() || host.length() > MAX_HOSTNAME_LENGTH) {
            throw new IllegalArgumentException("host name length: " + host.length() + " (expected: 1..255)");
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c <= 0x20 || c >= 0x7F) {
                throw new IllegalArgumentException("host name has a byte outside printable ASCII at index " + i
                        + ": " + (int) c + " (an IDN goes in its A-label form)");
            }
        }
        return host;
    }

    /**
     * Reads {@code length} bytes of a host name from the wire, refusing what {@link #checkHostname} would.
     * Quotes the bad byte, never the name, which may hold anything.
     */
    static String readHostname(ByteBuf in, int index, int length, String what) {
        if (length == 0) {
            throw new SocksProtocolException(what + ": empty host name");
        }
        for (int i = 0; i < length; i++) {
            int b = in.getUnsignedByte(index + i);
            if (b <= 0x20 || b >= 0x7F) {
                throw new SocksProtocolException(what + ": host name byte 0x" + Integer.toHexString(b) + " at index "
                        + i + " is not printable ASCII");
            }
        }
        return in.toString(index, length, StandardCharsets.US_ASCII);
    }

    /**
     * Reads a user name, password or user id as strict UTF-8: a malformed sequence is refused rather
     * than replaced, so the string a server checks is exactly what the client sent.
     */
    static String readUtf8(ByteBuf in, int index, int length, String what) {
        byte[] bytes = new byte[length];
        in.getBytes(index, bytes);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new SocksProtocolException(what + " is not valid UTF-8");
        }
    }

    /** Checks a user name, password or user id for a message being built, returning its UTF-8 bytes. */
    static byte[] checkText(String text, String name, int min) {
        if (text == null) {
            throw new NullPointerException(name);
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < min || bytes.length > 255) {
            throw new IllegalArgumentException(name + ": " + bytes.length + " bytes in UTF-8 (expected: " + min
                    + "..255)");
        }
        return bytes;
    }

    /** The four bytes of a dotted-quad IPv4 literal, or null if {@code host} is not one. */
    static byte[] ipv4(String host) {
        byte[] out = new byte[4];
        int part = 0;
        int value = -1;
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c == '.') {
                if (value < 0 || part == 3) {
                    return null;
                }
                out[part++] = (byte) value;
                value = -1;
            } else if (c >= '0' && c <= '9') {
                // Leading zeros are refused: "010" is octal to some parsers and decimal to others.
                if (value == 0) {
                    return null;
                }
                value = (value < 0 ? 0 : value * 10) + (c - '0');
                if (value > 255) {
                    return null;
                }
            } else {
                return null;
            }
        }
        if (value < 0 || part != 3) {
            return null;
        }
        out[3] = (byte) value;
        return out;
    }

    /** The sixteen bytes of an IPv6 literal (brackets allowed), or null if {@code host} is not one. */
    static byte[] ipv6(String host) {
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (literal.indexOf(':') < 0) {
            return null;
        }
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (!(c == ':' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return null;
            }
        }
        try {
            // Only hex digits, colons and dots: InetAddress parses a literal and never resolves it.
            InetAddress address = InetAddress.getByName(literal);
            if (address instanceof Inet6Address) {
                return address.getAddress();
            }
            // The JDK turns an IPv4-mapped literal (::ffff:a.b.c.d) into an IPv4 address; keep its 16 bytes.
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xFF;
            mapped[11] = (byte) 0xFF;
            System.arraycopy(address.getAddress(), 0, mapped, 12, 4);
            return mapped;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    static String formatIpv4(ByteBuf in, int index) {
        return in.getUnsignedByte(index) + "." + in.getUnsignedByte(index + 1) + "." + in.getUnsignedByte(index + 2)
                + "." + in.getUnsignedByte(index + 3);
    }

    static String formatIpv6(ByteBuf in, int index) {
        byte[] bytes = new byte[16];
        in.getBytes(index, bytes);
        try {
            return Inet6Address.getByAddress(null, bytes, -1).getHostAddress();
        } catch (UnknownHostException e) {
            throw new AssertionError("sixteen bytes are always an address", e);
        }
    }
}
