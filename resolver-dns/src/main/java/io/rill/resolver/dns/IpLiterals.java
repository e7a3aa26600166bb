package io.rill.resolver.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Recognises IPv4 dotted quads and IPv6 literals without ever asking DNS. */
final class IpLiterals {

    private IpLiterals() {
    }

    /** The address {@code s} spells, or null if it is not a literal. */
    static InetAddress parse(String s) {
        String bare = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        if (bare.indexOf(':') >= 0) {
            // Only hex digits, colons and dots (an embedded IPv4) reach InetAddress, which then parses and never resolves.
            for (int i = 0; i < bare.length(); i++) {
                char c = bare.charAt(i);
                if (!(c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
                    return null;
                }
            }
            try {
                return InetAddress.getByName(bare);
            } catch (UnknownHostException e) {
                return null;
            }
        }
        if (bare.isEmpty() || bare.charAt(0) < '0' || bare.charAt(0) > '9') {
            return null; // the common case, a name: no allocation
        }
        int packed = 0;
        int part = 0;
        int value = -1;
        for (int i = 0; i <= bare.length(); i++) {
            char c = i < bare.length() ? bare.charAt(i) : '.';
            if (c == '.') {
                if (value < 0 || part == 4) {
                    return null;
                }
                packed = packed << 8 | value;
                part++;
                value = -1;
            } else if (c >= '0' && c <= '9') {
                value = (value < 0 ? 0 : value * 10) + (c - '0');
                if (value > 255) {
                    return null;
                }
            } else {
                return null;
            }
        }
        if (part != 4) {
            return null;
        }
        try {
            return InetAddress.getByAddress(new byte[] {
                (byte) (packed >>> 24), (byte) (packed >>> 16), (byte) (packed >>> 8), (byte) packed});
        } catch (UnknownHostException impossible) {
            throw new AssertionError(impossible);
        }
    }
}
