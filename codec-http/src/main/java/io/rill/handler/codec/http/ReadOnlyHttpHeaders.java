package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/**
 * What {@link HttpHeaders#toReadOnly()} returns: a copy that refuses changes and keeps its
 * encoding, made once here, so a response sent over and over costs one copy of its fields per
 * send. A class of its own so that ordinary header sets do not carry the extra field (the decoder
 * makes one per request).
 */
final class ReadOnlyHttpHeaders extends HttpHeaders {

    /** The fields as a head carries them; final, so a set shared between threads is seen whole. */
    private final byte[] encoded;

    ReadOnlyHttpHeaders(HttpHeaders source) {
        super(source);
        // Encoded into an array, not a ByteBuf: an application may make such a set every second
        // (a Date field), and a buffer class seen nowhere else on its loop would send the JIT's
        // compiled release paths back to the interpreter each time.
        int length = 0;
        for (int i = 0; i < size(); i++) {
            length += nameAt(i).length() + valueAt(i).length() + 4;
        }
        byte[] bytes = new byte[length];
        int at = 0;
        for (int i = 0; i < size(); i++) {
            at = latin1(nameAt(i), bytes, at);
            bytes[at++] = ':';
            bytes[at++] = ' ';
            at = latin1(valueAt(i), bytes, at);
            bytes[at++] = '\r';
            bytes[at++] = '\n';
        }
        encoded = bytes;
    }

    /** One byte per char, as the encoder writes any value ('?' for what ISO-8859-1 cannot hold). */
    private static int latin1(CharSequence text, byte[] out, int at) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out[at++] = c <= 0xff ? (byte) c : (byte) '?';
        }
        return at;
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    void encode(ByteBuf buf) {
        buf.writeBytes(encoded);
    }
}
