package io.rill.testsuite.differential;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Mutates a well-formed message the ways that made parsers disagree before: a flipped byte,
 * control bytes, whitespace, high bytes and bare line ends inserted where they are not allowed,
 * obs-fold, a byte lost, the input cut short, framing fields duplicated or disguised (the request
 * smuggling shapes of docs/security-cases.md, cases S-01 to S-07, H1-01 to H1-05, H1-08, H1-10,
 * H1-12, H1-13, H1-15 and H1-16). Positions favour the head, where the grammar is.
 */
final class Mutator {

    private static final byte[][] INSERTS = bytes(
            "\r", "\n", "\0", " ", "\t", "\r\n", "\r\n ", "\r\n\t", "\u0080", "\u00ff", "\u007f", "\u000b", "\u000c",
            ":", ",", ";", "\"", "\\", "/", "0", "9", "a", "=", "\u001f", "HTTP/1.1", "\r\n\r\n");

    private static final byte[][] SMUGGLING_FIELDS = bytes(
            "Content-Length: 5\r\n", "Content-Length: 0\r\n", "Transfer-Encoding: chunked\r\n",
            "Transfer-Encoding : chunked\r\n", "Transfer-Encoding: xchunked\r\n", "Transfer-Encoding: chunked, gzip\r\n",
            "Transfer-Encoding: gzip, chunked\r\n", "Transfer-Encoding: chunked, chunked\r\n", "Transfer-Encoding: identity\r\n",
            "Content-Length: +5\r\n", "Content-Length: 0x5\r\n", "Content-Length: 1,1\r\n", "Content-Length: 5 5\r\n",
            "Content-Length: -1\r\n", "Content-Length: 99999999999999999999\r\n", "Content-Length: 05\r\n",
            " Transfer-Encoding: chunked\r\n", "Transfer_Encoding: chunked\r\n", "Transfer-Encoding:\tchunked\r\n",
            "Transfer-Encoding: \u000bchunked\r\n", "Transfer-Encoding:\r\n chunked\r\n", "Host: other.example\r\n",
            "X-Folded: a\r\n b\r\n", "\u000cX-Ctl: 1\r\n", "X-Ctl\u001f: 1\r\n", "Connection: close\r\n",
            "Expect: 100-continue\r\n", ": no-name\r\n", "no-colon\r\n", "Content-Length: 3\r\nContent-Length: 3\r\n",
            "Upgrade: h2c\r\nConnection: Upgrade\r\n");

    private final SplittableRandom random;

    Mutator(SplittableRandom random) {
        this.random = random;
    }

    /** One to three mutations of {@code valid}. */
    byte[] mutate(byte[] valid) {
        byte[] b = valid;
        int n = 1 + (random.nextInt(4) == 0 ? random.nextInt(3) : 0);
        for (int i = 0; i < n && b.length > 0; i++) {
            b = once(b);
        }
        return b;
    }

    private byte[] once(byte[] b) {
        return switch (random.nextInt(11)) {
            case 0, 1 -> flip(b);
            case 2, 3 -> insert(b, position(b), INSERTS[random.nextInt(INSERTS.length)]);
            case 4 -> delete(b, position(b));
            case 5 -> truncate(b);
            case 6 -> bareLineEnd(b);
            case 7, 8 -> insertFieldLine(b);
            case 9 -> duplicateLine(b);
            default -> changeCase(b);
        };
    }

    private byte[] flip(byte[] b) {
        byte[] c = b.clone();
        int at = position(b);
        c[at] = (byte) (random.nextBoolean() ? random.nextInt(256) : c[at] ^ (1 << random.nextInt(8)));
        return c;
    }

    private byte[] truncate(byte[] b) {
        return java.util.Arrays.copyOf(b, random.nextInt(b.length));
    }

    /** A CRLF replaced by LF alone or CR alone (S-05, H1-08). */
    private byte[] bareLineEnd(byte[] b) {
        int at = nthCrlf(b);
        if (at < 0) {
            return flip(b);
        }
        byte[] rest = random.nextBoolean() ? new byte[] {'\n'} : new byte[] {'\r'};
        return splice(b, at, 2, rest);
    }

    /** A framing or otherwise suspicious field line after the start line or another field line. */
    private byte[] insertFieldLine(byte[] b) {
        int at = nthCrlf(b);
        if (at < 0) {
            return flip(b);
        }
        return insert(b, at + 2, SMUGGLING_FIELDS[random.nextInt(SMUGGLING_FIELDS.length)]);
    }

    /** A line (start, field, chunk size) repeated, so Host, Content-Length or a chunk comes twice. */
    private byte[] duplicateLine(byte[] b) {
        int at = nthCrlf(b);
        if (at < 0) {
            return flip(b);
        }
        int start = at;
        while (start > 0 && b[start - 1] != '\n') {
            start--;
        }
        byte[] line = java.util.Arrays.copyOfRange(b, start, at + 2);
        return insert(b, at + 2, line);
    }

    /** Upper- or lower-cases a letter of the head: methods, versions and chunked are case-sensitive or not. */
    private byte[] changeCase(byte[] b) {
        byte[] c = b.clone();
        int at = position(b);
        byte x = c[at];
        if (x >= 'a' && x <= 'z' || x >= 'A' && x <= 'Z') {
            c[at] = (byte) (x ^ 0x20);
            return c;
        }
        return flip(b);
    }

    /** A position, three times in four within the first 200 bytes (the head). */
    private int position(byte[] b) {
        int bound = random.nextInt(4) == 0 ? b.length : Math.min(b.length, 200);
        return random.nextInt(bound);
    }

    /** Index of the CR of a random CRLF, or -1 if none. */
    private int nthCrlf(byte[] b) {
        int count = 0;
        for (int i = 0; i + 1 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n') {
                count++;
            }
        }
        if (count == 0) {
            return -1;
        }
        int want = random.nextInt(Math.min(count, 8));
        for (int i = 0; i + 1 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && want-- == 0) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] insert(byte[] b, int at, byte[] what) {
        return splice(b, at, 0, what);
    }

    private static byte[] delete(byte[] b, int at) {
        return splice(b, at, 1, new byte[0]);
    }

    private static byte[] splice(byte[] b, int at, int removed, byte[] what) {
        byte[] c = new byte[b.length - removed + what.length];
        System.arraycopy(b, 0, c, 0, at);
        System.arraycopy(what, 0, c, at, what.length);
        System.arraycopy(b, at + removed, c, at + what.length, b.length - at - removed);
        return c;
    }

    private static byte[][] bytes(String... strings) {
        byte[][] out = new byte[strings.length][];
        for (int i = 0; i < strings.length; i++) {
            out[i] = strings[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return out;
    }
}
