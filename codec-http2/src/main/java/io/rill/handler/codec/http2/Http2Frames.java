package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;

/**
 * The wire constants of RFC 9113 §4 and §6: the frame header, the frame types and their flags.
 *
 * <pre>
 * +-----------------------------------------------+
 * |                 Length (24)                   |
 * +---------------+---------------+---------------+
 * |   Type (8)    |   Flags (8)   |
 * +-+-------------+---------------+-------------------------------+
 * |R|                 Stream Identifier (31)                      |
 * +=+=============================================================+
 * |                   Frame Payload (0...)                      ...
 * +---------------------------------------------------------------+
 * </pre>
 */
final class Http2Frames {

    static final int HEADER_LENGTH = 9;

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int PRIORITY = 0x2;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PUSH_PROMISE = 0x5;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;

    static final int FLAG_END_STREAM = 0x1;
    static final int FLAG_ACK = 0x1;
    static final int FLAG_END_HEADERS = 0x4;
    static final int FLAG_PADDED = 0x8;
    static final int FLAG_PRIORITY = 0x20;

    /** The client connection preface, RFC 9113 §3.4: 24 octets before the first SETTINGS frame. */
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Http2Frames() {
    }

    /** @return the preface's length in bytes, 24 */
    static int prefaceLength() {
        return PREFACE.length;
    }

    /** Appends the client preface to {@code out}. */
    static void writePreface(ByteBuf out) {
        out.writeBytes(PREFACE);
    }

    /**
     * Compares the readable bytes of {@code in} (at most the preface's length) with the preface.
     *
     * @return the number of bytes that matched if all of them did, or -1 at the first mismatch
     */
    static int matchPreface(ByteBuf in) {
        int n = Math.min(in.readableBytes(), PREFACE.length);
        int at = in.readerIndex();
        for (int i = 0; i < n; i++) {
            if (in.getByte(at + i) != PREFACE[i]) {
                return -1;
            }
        }
        return n;
    }

    /** Writes a frame header: length, type, flags, stream id. */
    static void writeHeader(ByteBuf out, int length, int type, int flags, int streamId) {
        out.writeMedium(length);
        out.writeByte(type);
        out.writeByte(flags);
        out.writeInt(streamId);
    }

    /** The RFC's name of a frame type, for messages. */
    static String typeName(int type) {
        return switch (type) {
            case DATA -> "DATA";
            case HEADERS -> "HEADERS";
            case PRIORITY -> "PRIORITY";
            case RST_STREAM -> "RST_STREAM";
            case SETTINGS -> "SETTINGS";
            case PUSH_PROMISE -> "PUSH_PROMISE";
            case PING -> "PING";
            case GOAWAY -> "GOAWAY";
            case WINDOW_UPDATE -> "WINDOW_UPDATE";
            case CONTINUATION -> "CONTINUATION";
            default -> "frame type 0x" + Integer.toHexString(type);
        };
    }
}
