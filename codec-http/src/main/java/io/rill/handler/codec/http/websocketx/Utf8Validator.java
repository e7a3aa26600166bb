package io.rill.handler.codec.http.websocketx;

/**
 * An incremental UTF-8 checker (RFC 3629 §4): fed one byte at a time across frame boundaries, it
 * rejects the first byte that cannot continue a well-formed sequence, so a bad text message is
 * refused at that byte, before the rest of the message arrives (RFC 6455 §8.1).
 *
 * <p>The state is how many continuation bytes are still due and the range the next one must fall
 * in: a lead byte narrows the range of its first continuation to exclude overlong forms
 * ({@code E0 80..9F}, {@code F0 80..8F}), surrogates ({@code ED A0..BF}) and code points above
 * U+10FFFF ({@code F4 90..BF}); later continuations are {@code 80..BF}. Not thread-safe.
 *
 * <p>Public so that an extension that transforms text (permessage-deflate inflating it) can check
 * the bytes it produces the same way the frame decoder checks plain text.
 */
public final class Utf8Validator {

    /** A validator at the start of a message. */
    public Utf8Validator() {
    }

    /** Continuation bytes still due for the current sequence; 0 between characters. */
    private int pending;
    /** The lowest byte allowed next while {@code pending > 0}. */
    private int low;
    /** The highest byte allowed next while {@code pending > 0}. */
    private int high;

    /**
     * Takes one more byte.
     *
     * @param b the byte (any int; only the low 8 bits count)
     * @return false if the byte makes the input invalid; the state is then undefined
     */
    public boolean accept(int b) {
        b &= 0xFF;
        if (pending > 0) {
            if (b < low || b > high) {
                return false;
            }
            pending--;
            low = 0x80;
            high = 0xBF;
            return true;
        }
        if (b < 0x80) {
            return true;
        }
        return lead(b);
    }

    private boolean lead(int b) {
        low = 0x80;
        high = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            pending = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            pending = 2;
            if (b == 0xE0) {
                low = 0xA0; // E0 80..9F would be overlong
            } else if (b == 0xED) {
                high = 0x9F; // ED A0..BF would encode a surrogate
            }
        } else if (b >= 0xF0 && b <= 0xF4) {
            pending = 3;
            if (b == 0xF0) {
                low = 0x90; // overlong
            } else if (b == 0xF4) {
                high = 0x8F; // above U+10FFFF
            }
        } else {
            return false; // 80..C1 cannot start a sequence, F5..FF never occur
        }
        return true;
    }

    /** @return whether the input so far ends on a character boundary */
    public boolean isComplete() {
        return pending == 0;
    }

    /** Starts over for a new message. */
    public void reset() {
        pending = 0;
    }
}
