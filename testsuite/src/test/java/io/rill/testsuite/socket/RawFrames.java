package io.rill.testsuite.socket;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** HTTP/2 frames written byte by byte, for attackers that no well-behaved codec would be. */
final class RawFrames {

    private RawFrames() {
    }

    /** The preface, an empty SETTINGS, then {@code streams} × (a GET that ends its stream, RST_STREAM CANCEL). */
    static ByteBuf rapidReset(int streams) {
        ByteBuf out = Unpooled.buffer();
        out.writeCharSequence("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", StandardCharsets.US_ASCII);
        header(out, 0, 0x4, 0, 0);
        // HPACK: :method GET (static 2), :scheme http (6), :path / (4), :authority "localhost" (literal, name 1).
        byte[] block = {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't'};
        for (int i = 0, id = 1; i < streams; i++, id += 2) {
            header(out, block.length, 0x1, 0x1 | 0x4, id);
            out.writeBytes(block);
            header(out, 4, 0x3, 0, id);
            out.writeInt(0x8);
        }
        return out;
    }

    /** The preface, an empty SETTINGS, then a GET on each of {@code streams}, ending the stream when its flag says so. */
    static ByteBuf gets(int[] streams, boolean[] endStream) {
        ByteBuf out = Unpooled.buffer();
        out.writeCharSequence("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", StandardCharsets.US_ASCII);
        header(out, 0, 0x4, 0, 0);
        byte[] block = {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't'};
        for (int i = 0; i < streams.length; i++) {
            header(out, block.length, 0x1, 0x4 | (endStream[i] ? 0x1 : 0), streams[i]);
            out.writeBytes(block);
        }
        return out;
    }

    /**
     * A client that never opens a window (SETTINGS_INITIAL_WINDOW_SIZE 0): the preface, then
     * {@code streams} × (POST /echo, {@code body} bytes of content that end the stream).
     */
    static ByteBuf zeroWindowEchoes(int streams, int body) {
        ByteBuf out = Unpooled.buffer();
        out.writeCharSequence("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", StandardCharsets.US_ASCII);
        header(out, 6, 0x4, 0, 0);
        out.writeShort(0x4).writeInt(0); // SETTINGS_INITIAL_WINDOW_SIZE 0
        // HPACK: :method POST (static 3), :scheme http (6), :path "/echo" (literal, name 4), :authority "localhost".
        byte[] block = {(byte) 0x83, (byte) 0x86, 0x04, 5, '/', 'e', 'c', 'h', 'o', 0x01, 9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't'};
        for (int i = 0, id = 1; i < streams; i++, id += 2) {
            header(out, block.length, 0x1, 0x4, id);
            out.writeBytes(block);
            header(out, body, 0x0, 0x1, id);
            out.writeZero(body);
        }
        return out;
    }

    /** The frames among {@code bytes} (the server's), each as "TYPE flags stream" with its first 32-bit word for RST_STREAM and GOAWAY. */
    static java.util.List<String> describe(byte[] bytes) {
        java.util.List<String> frames = new java.util.ArrayList<>();
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        while (in.readableBytes() >= 9) {
            int length = in.readUnsignedMedium();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int stream = in.readInt() & 0x7fffffff;
            if (in.readableBytes() < length) {
                break;
            }
            String word = type == 0x3 ? " " + in.getUnsignedInt(in.readerIndex())
                    : type == 0x7 ? " " + in.getUnsignedInt(in.readerIndex() + 4) : "";
            frames.add(type + " " + flags + " " + stream + word);
            in.skipBytes(length);
        }
        in.release();
        return frames;
    }

    /** The error code of the last GOAWAY among {@code frames} (the server's bytes), or -1. */
    static long lastGoAwayError(byte[] frames) {
        ByteBuf in = Unpooled.wrappedBuffer(frames);
        try {
            return lastGoAwayError(in);
        } finally {
            in.release();
        }
    }

    private static long lastGoAwayError(ByteBuf in) {
        long error = -1;
        while (in.readableBytes() >= 9) {
            int length = in.readUnsignedMedium();
            int type = in.readUnsignedByte();
            in.skipBytes(5);
            if (in.readableBytes() < length) {
                break;
            }
            if (type == 0x7) {
                error = in.getUnsignedInt(in.readerIndex() + 4);
            }
            in.skipBytes(length);
        }
        return error;
    }

    private static void header(ByteBuf out, int length, int type, int flags, int streamId) {
        out.writeMedium(length);
        out.writeByte(type);
        out.writeByte(flags);
        out.writeInt(streamId);
    }
}
