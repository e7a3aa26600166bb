package io.rill.handler.codec.haproxy;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** Address literals, parsed without any name lookup, and the checks the message and decoder share. */
final class HAProxyAddresses {

    /** sun_path is 108 bytes; a version 2 header carries it NUL-padded. */
    static final int UNIX_PATH_BYTES = 108;

    private HAProxyAddresses() {
    }

    /** The four bytes of a dotted quad without leading zeros, or null. */
    static byte[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            Integer v = decimal(parts[i], 255);
            if (v == null) {
                return null;
            }
            out[i] = (byte) (int) v;
        }
        return out;
    }

    /** The sixteen bytes of an IPv6 literal (no brackets, no zone), or null. */
    static byte[] ipv6(String s) {
        if (s.indexOf(':') < 0) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c == ':' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return null;
            }
        }
        try {
            // Only hex digits, colons and dots: the JDK parses it as a literal and never looks it up.
            InetAddress a = InetAddress.getByName(s);
            if (a instanceof Inet6Address) {
                return a.getAddress();
            }
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xFF;
            mapped[11] = (byte) 0xFF;
            System.arraycopy(a.getAddress(), 0, mapped, 12, 4);
            return mapped;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** A decimal of at most {@code max} without sign or leading zeros, or null. */
    static Integer decimal(String s, int max) {
        if (s.isEmpty() || s.length() > 5 || (s.length() > 1 && s.charAt(0) == '0')) {
            return null;
        }
        int v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            v = v * 10 + (c - '0');
        }
        return v <= max ? v : null;
    }

    static String formatIpv4(byte[] b) {
        return (b[0] & 0xFF) + "." + (b[1] & 0xFF) + "." + (b[2] & 0xFF) + "." + (b[3] & 0xFF);
    }

    static String formatIpv6(byte[] b) {
        try {
            return Inet6Address.getByAddress(null, b, -1).getHostAddress();
        } catch (UnknownHostException e) {
            throw new AssertionError("sixteen bytes are an address", e);
        }
    }

    static InetAddress inet(String literal, boolean v6) {
        try {
            byte[] bytes = v6 ? ipv6(literal) : ipv4(literal);
            return v6 ? Inet6Address.getByAddress(null, bytes, -1) : Inet4Address.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new AssertionError("a checked literal is an address", e);
        }
    }
}
