package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * The static Huffman code of RFC 7541 Appendix B, both ways.
 *
 * <p>Encoding appends each symbol's code to a 64-bit accumulator and writes it out 32 bits at a
 * time, then whole bytes; the last byte is padded with the most significant bits of EOS, i.e. ones (§5.2).
 *
 * <p>Decoding walks a 4-bit-at-a-time state machine derived, when this class loads, from the
 * code table below (so the table is the only transcription to check against the RFC). A state
 * is an internal node of the code tree, 0 being the root; the tree has 256 internal nodes for its
 * 257 leaves. Every code is at least 5 bits long, so one nibble completes at most one symbol.
 * A transition packs:
 * <pre>
 *   bits 0-7   next state
 *   bits 8-15  the symbol completed in this nibble, if bit 16 is set
 *   bit  16    EMIT
 *   bit  17    FAIL: the nibble completed EOS, which §5.2 says is a decoding error
 * </pre>
 * At the end of the input the state must be the root, or a node reached from the root through
 * at most seven 1-bits: anything else is padding that is too long or not a prefix of EOS.
 */
final class HpackHuffman {

    /** Code (right-aligned) and length in bits of symbols 0-255 and EOS (256), as Appendix B lists them. */
    private static final int[] CODES_AND_LENGTHS = {
        /*   0 */ 0x00001ff8, 13, 0x007fffd8, 23, 0x0fffffe2, 28, 0x0fffffe3, 28,
        /*   4 */ 0x0fffffe4, 28, 0x0fffffe5, 28, 0x0fffffe6, 28, 0x0fffffe7, 28,
        /*   8 */ 0x0fffffe8, 28, 0x00ffffea, 24, 0x3ffffffc, 30, 0x0fffffe9, 28,
        /*  12 */ 0x0fffffea, 28, 0x3ffffffd, 30, 0x0fffffeb, 28, 0x0fffffec, 28,
        /*  16 */ 0x0fffffed, 28, 0x0fffffee, 28, 0x0fffffef, 28, 0x0ffffff0, 28,
        /*  20 */ 0x0ffffff1, 28, 0x0ffffff2, 28, 0x3ffffffe, 30, 0x0ffffff3, 28,
        /*  24 */ 0x0ffffff4, 28, 0x0ffffff5, 28, 0x0ffffff6, 28, 0x0ffffff7, 28,
        /*  28 */ 0x0ffffff8, 28, 0x0ffffff9, 28, 0x0ffffffa, 28, 0x0ffffffb, 28,
        /*  32 */ 0x00000014,  6, 0x000003f8, 10, 0x000003f9, 10, 0x00000ffa, 12,
        /*  36 */ 0x00001ff9, 13, 0x00000015,  6, 0x000000f8,  8, 0x000007fa, 11,
        /*  40 */ 0x000003fa, 10, 0x000003fb, 10, 0x000000f9,  8, 0x000007fb, 11,
        /*  44 */ 0x000000fa,  8, 0x00000016,  6, 0x00000017,  6, 0x00000018,  6,
        /*  48 */ 0x00000000,  5, 0x00000001,  5, 0x00000002,  5, 0x00000019,  6,
        /*  52 */ 0x0000001a,  6, 0x0000001b,  6, 0x0000001c,  6, 0x0000001d,  6,
        /*  56 */ 0x0000001e,  6, 0x0000001f,  6, 0x0000005c,  7, 0x000000fb,  8,
        /*  60 */ 0x00007ffc, 15, 0x00000020,  6, 0x00000ffb, 12, 0x000003fc, 10,
        /*  64 */ 0x00001ffa, 13, 0x00000021,  6, 0x0000005d,  7, 0x0000005e,  7,
        /*  68 */ 0x0000005f,  7, 0x00000060,  7, 0x00000061,  7, 0x00000062,  7,
        /*  72 */ 0x00000063,  7, 0x00000064,  7, 0x00000065,  7, 0x00000066,  7,
        /*  76 */ 0x00000067,  7, 0x00000068,  7, 0x00000069,  7, 0x0000006a,  7,
        /*  80 */ 0x0000006b,  7, 0x0000006c,  7, 0x0000006d,  7, 0x0000006e,  7,
        /*  84 */ 0x0000006f,  7, 0x00000070,  7, 0x00000071,  7, 0x00000072,  7,
        /*  88 */ 0x000000fc,  8, 0x00000073,  7, 0x000000fd,  8, 0x00001ffb, 13,
        /*  92 */ 0x0007fff0, 19, 0x00001ffc, 13, 0x00003ffc, 14, 0x00000022,  6,
        /*  96 */ 0x00007ffd, 15, 0x00000003,  5, 0x00000023,  6, 0x00000004,  5,
        /* 100 */ 0x00000024,  6, 0x00000005,  5, 0x00000025,  6, 0x00000026,  6,
        /* 104 */ 0x00000027,  6, 0x00000006,  5, 0x00000074,  7, 0x00000075,  7,
        /* 108 */ 0x00000028,  6, 0x00000029,  6, 0x0000002a,  6, 0x00000007,  5,
        /* 112 */ 0x0000002b,  6, 0x00000076,  7, 0x0000002c,  6, 0x00000008,  5,
        /* 116 */ 0x00000009,  5, 0x0000002d,  6, 0x00000077,  7, 0x00000078,  7,
        /* 120 */ 0x00000079,  7, 0x0000007a,  7, 0x0000007b,  7, 0x00007ffe, 15,
        /* 124 */ 0x000007fc, 11, 0x00003ffd, 14, 0x00001ffd, 13, 0x0ffffffc, 28,
        /* 128 */ 0x000fffe6, 20, 0x003fffd2, 22, 0x000fffe7, 20, 0x000fffe8, 20,
        /* 132 */ 0x003fffd3, 22, 0x003fffd4, 22, 0x003fffd5, 22, 0x007fffd9, 23,
        /* 136 */ 0x003fffd6, 22, 0x007fffda, 23, 0x007fffdb, 23, 0x007fffdc, 23,
        /* 140 */ 0x007fffdd, 23, 0x007fffde, 23, 0x00ffffeb, 24, 0x007fffdf, 23,
        /* 144 */ 0x00ffffec, 24, 0x00ffffed, 24, 0x003fffd7, 22, 0x007fffe0, 23,
        /* 148 */ 0x00ffffee, 24, 0x007fffe1, 23, 0x007fffe2, 23, 0x007fffe3, 23,
        /* 152 */ 0x007fffe4, 23, 0x001fffdc, 21, 0x003fffd8, 22, 0x007fffe5, 23,
        /* 156 */ 0x003fffd9, 22, 0x007fffe6, 23, 0x007fffe7, 23, 0x00ffffef, 24,
        /* 160 */ 0x003fffda, 22, 0x001fffdd, 21, 0x000fffe9, 20, 0x003fffdb, 22,
        /* 164 */ 0x003fffdc, 22, 0x007fffe8, 23, 0x007fffe9, 23, 0x001fffde, 21,
        /* 168 */ 0x007fffea, 23, 0x003fffdd, 22, 0x003fffde, 22, 0x00fffff0, 24,
        /* 172 */ 0x001fffdf, 21, 0x003fffdf, 22, 0x007fffeb, 23, 0x007fffec, 23,
        /* 176 */ 0x001fffe0, 21, 0x001fffe1, 21, 0x003fffe0, 22, 0x001fffe2, 21,
        /* 180 */ 0x007fffed, 23, 0x003fffe1, 22, 0x007fffee, 23, 0x007fffef, 23,
        /* 184 */ 0x000fffea, 20, 0x003fffe2, 22, 0x003fffe3, 22, 0x003fffe4, 22,
        /* 188 */ 0x007ffff0, 23, 0x003fffe5, 22, 0x003fffe6, 22, 0x007ffff1, 23,
        /* 192 */ 0x03ffffe0, 26, 0x03ffffe1, 26, 0x000fffeb, 20, 0x0007fff1, 19,
        /* 196 */ 0x003fffe7, 22, 0x007ffff2, 23, 0x003fffe8, 22, 0x01ffffec, 25,
        /* 200 */ 0x03ffffe2, 26, 0x03ffffe3, 26, 0x03ffffe4, 26, 0x07ffffde, 27,
        /* 204 */ 0x07ffffdf, 27, 0x03ffffe5, 26, 0x00fffff1, 24, 0x01ffffed, 25,
        /* 208 */ 0x0007fff2, 19, 0x001fffe3, 21, 0x03ffffe6, 26, 0x07ffffe0, 27,
        /* 212 */ 0x07ffffe1, 27, 0x03ffffe7, 26, 0x07ffffe2, 27, 0x00fffff2, 24,
        /* 216 */ 0x001fffe4, 21, 0x001fffe5, 21, 0x03ffffe8, 26, 0x03ffffe9, 26,
        /* 220 */ 0x0ffffffd, 28, 0x07ffffe3, 27, 0x07ffffe4, 27, 0x07ffffe5, 27,
        /* 224 */ 0x000fffec, 20, 0x00fffff3, 24, 0x000fffed, 20, 0x001fffe6, 21,
        /* 228 */ 0x003fffe9, 22, 0x001fffe7, 21, 0x001fffe8, 21, 0x007ffff3, 23,
        /* 232 */ 0x003fffea, 22, 0x003fffeb, 22, 0x01ffffee, 25, 0x01ffffef, 25,
        /* 236 */ 0x00fffff4, 24, 0x00fffff5, 24, 0x03ffffea, 26, 0x007ffff4, 23,
        /* 240 */ 0x03ffffeb, 26, 0x07ffffe6, 27, 0x03ffffec, 26, 0x03ffffed, 26,
        /* 244 */ 0x07ffffe7, 27, 0x07ffffe8, 27, 0x07ffffe9, 27, 0x07ffffea, 27,
        /* 248 */ 0x07ffffeb, 27, 0x0ffffffe, 28, 0x07ffffec, 27, 0x07ffffed, 27,
        /* 252 */ 0x07ffffee, 27, 0x07ffffef, 27, 0x07fffff0, 27, 0x03ffffee, 26,
        /* 256 */ 0x3fffffff, 30,
    };

    private static final int EOS = 256;
    private static final int EMIT = 1 << 16;
    private static final int FAIL = 1 << 17;

    private static final int[] CODES = new int[257];
    private static final byte[] LENGTHS = new byte[257];
    /** {@code TRANSITIONS[state << 4 | nibble]}, packed as the class comment draws. */
    private static final int[] TRANSITIONS = new int[256 * 16];
    /** Whether decoding may stop in this state: the root or at most 7 bits of EOS's all-ones prefix. */
    private static final boolean[] MAY_END = new boolean[256];

    static {
        for (int sym = 0; sym <= EOS; sym++) {
            CODES[sym] = CODES_AND_LENGTHS[sym * 2];
            LENGTHS[sym] = (byte) CODES_AND_LENGTHS[sym * 2 + 1];
        }
        buildDecoder();
    }

    private HpackHuffman() {
    }

    /**
     * The length in bytes of {@code s} once Huffman-coded, its last byte padded.
     *
     * @param s one-byte characters; a character above U+00FF counts as {@code '?'}
     */
    static int encodedLength(CharSequence s) {
        long bits = 0;
        if (s instanceof AsciiString ascii) {
            byte[] a = ascii.array();
            for (int i = ascii.arrayOffset(), end = i + ascii.length(); i < end; i++) {
                bits += LENGTHS[a[i] & 0xFF];
            }
            return (int) ((bits + 7) >>> 3);
        }
        for (int i = 0, n = s.length(); i < n; i++) {
            bits += LENGTHS[HpackStrings.byteAt(s, i) & 0xFF];
        }
        return (int) ((bits + 7) >>> 3);
    }

    /** Writes the Huffman code of {@code s}, padded with ones to a whole byte. */
    static void encode(CharSequence s, ByteBuf out) {
        long acc = 0;
        int bits = 0;
        AsciiString ascii = s instanceof AsciiString a ? a : null;
        byte[] array = ascii != null ? ascii.array() : null;
        int offset = ascii != null ? ascii.arrayOffset() : 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            int sym = (array != null ? array[offset + i] : HpackStrings.byteAt(s, i)) & 0xFF;
            // a code is at most 30 bits and fewer than 32 stay pending, so 61 bits fit in the long;
            // draining four bytes at a time keeps buffer calls to a quarter of one per byte
            acc = acc << LENGTHS[sym] | CODES[sym];
            bits += LENGTHS[sym];
            if (bits >= 32) {
                bits -= 32;
                out.writeInt((int) (acc >>> bits));
            }
        }
        while (bits >= 8) {
            bits -= 8;
            out.writeByte((int) (acc >>> bits));
        }
        if (bits > 0) {
            out.writeByte((int) (acc << (8 - bits) | 0xFF >>> bits));
        }
    }

    /**
     * Decodes {@code src[offset, offset + length)} into {@code dst}.
     *
     * @param dst room for at least {@code length * 8 / 5} bytes, the most symbols that many bits hold
     * @return the number of bytes decoded, or -1 if the input holds EOS or ends in bad padding
     */
    static int decode(byte[] src, int offset, int length, byte[] dst) {
        final int[] transitions = TRANSITIONS;
        int state = 0;
        int written = 0;
        for (int i = offset, end = offset + length; i < end; i++) {
            int b = src[i];
            int t = transitions[state << 4 | (b >>> 4 & 0xF)];
            if ((t & (EMIT | FAIL)) != 0) {
                if ((t & FAIL) != 0) {
                    return -1;
                }
                dst[written++] = (byte) (t >>> 8);
            }
            t = transitions[(t & 0xFF) << 4 | (b & 0xF)];
            if ((t & (EMIT | FAIL)) != 0) {
                if ((t & FAIL) != 0) {
                    return -1;
                }
                dst[written++] = (byte) (t >>> 8);
            }
            state = t & 0xFF;
        }
        return MAY_END[state] ? written : -1;
    }

    /** Builds the code tree, then the nibble transitions of each internal node. */
    private static void buildDecoder() {
        // children[node * 2 + bit]: > 0 an internal node, <= 0 the leaf of symbol -child; root is node 0
        int[] children = new int[256 * 2];
        java.util.Arrays.fill(children, Integer.MIN_VALUE);
        int[] depth = new int[256];
        boolean[] allOnes = new boolean[256];
        allOnes[0] = true;
        int nodes = 1;
        for (int sym = 0; sym <= EOS; sym++) {
            int node = 0;
            for (int bit = LENGTHS[sym] - 1; bit > 0; bit--) {
                int slot = node * 2 + (CODES[sym] >>> bit & 1);
                if (children[slot] == Integer.MIN_VALUE) {
                    children[slot] = nodes;
                    depth[nodes] = depth[node] + 1;
                    allOnes[nodes] = allOnes[node] && (slot & 1) == 1;
                    nodes++;
                }
                node = children[slot];
            }
            children[node * 2 + (CODES[sym] & 1)] = -sym;
        }
        if (nodes != 256) {
            throw new AssertionError("the Huffman table does not describe a complete code: " + nodes + " nodes");
        }
        for (int state = 0; state < 256; state++) {
            MAY_END[state] = state == 0 || allOnes[state] && depth[state] <= 7;
            for (int nibble = 0; nibble < 16; nibble++) {
                int node = state;
                int t = 0;
                for (int bit = 3; bit >= 0; bit--) {
                    int child = children[node * 2 + (nibble >>> bit & 1)];
                    if (child > 0) {
                        node = child;
                    } else if (-child == EOS) {
                        t |= FAIL;
                        break;
                    } else {
                        t |= EMIT | -child << 8;
                        node = 0;
                    }
                }
                TRANSITIONS[state << 4 | nibble] = t | node;
            }
        }
    }
}
