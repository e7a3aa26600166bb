package io.rill.handler.codec.mqtt;

import static io.rill.handler.codec.mqtt.MqttReasonCode.MALFORMED_PACKET;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.handler.codec.EncoderException;

/**
 * The data representations of MQTT (5.0 section 1.5), read strictly and written by the same rules:
 * variable byte integers, two-byte-length UTF-8 strings and binary data.
 */
final class MqttWire {

    /** The largest variable byte integer: four bytes of seven bits. */
    static final int MAX_VARIABLE_BYTE = 268_435_455;

    private MqttWire() {
    }

    /**
     * Reads a variable byte integer that must lie within {@code in}'s readable bytes.
     *
     * @throws MqttDecoderException if it runs past the end, takes more than four bytes or is not
     *                              minimal (a trailing zero byte after a continuation, section 1.5.5)
     */
    static int readVariableByte(ByteBuf in, String what) {
        int value = 0;
        for (int i = 0; i < 4; i++) {
            if (!in.isReadable()) {
                throw malformed(what + " runs past the end of the packet");
            }
            int b = in.readUnsignedByte();
            if (i > 0 && b == 0) {
                throw malformed(what + " is not minimally encoded (byte " + (i + 1) + " is 0x00)");
            }
            value |= (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw malformed(what + " is longer than four bytes");
    }

    /** {@return the bytes {@code value} takes as a variable byte integer} */
    static int variableByteSize(int value) {
        return value < 128 ? 1 : value < 16_384 ? 2 : value < 2_097_152 ? 3 : 4;
    }

    static void writeVariableByte(ByteBuf out, int value) {
        do {
            int b = value & 0x7f;
            value >>>= 7;
            out.writeByte(value == 0 ? b : b | 0x80);
        } while (value != 0);
    }

    /**
     * Reads a two-byte-length UTF-8 string (section 1.5.4).
     *
     * @throws MqttDecoderException if it runs past the end, is not well-formed UTF-8 (which excludes
     *                              surrogates and overlong forms) or contains U+0000
     */
    static String readString(ByteBuf in, String what) {
        return readString(in, what, null);
    }

    /**
     * As {@link #readString(ByteBuf, String)}, copying through {@code scratch} when the string fits
     * (a decoder's own buffer, reused packet after packet: the String makes its own copy anyway).
     */
    static String readString(ByteBuf in, String what, byte[] scratch) {
        int length = readLength(in, what);
        if (length == 0) {
            return "";
        }
        // One bulk copy, then checks over the array: cheaper than a getByte per byte.
        byte[] bytes = scratch != null && length <= scratch.length ? scratch : new byte[length];
        in.readBytes(bytes, 0, length);
        boolean ascii = true;
        for (int i = 0; i < length; i++) {
            byte b = bytes[i];
            if (b == 0) {
                throw malformed(what + " contains U+0000");
            }
            ascii &= b > 0;
        }
        if (ascii) {
            return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
        }
        ByteBuf view = Unpooled.wrappedBuffer(bytes, 0, length);
        boolean valid = ByteBufUtil.isValidUtf8(view);
        view.release();
        if (!valid) {
            throw malformed(what + " is not well-formed UTF-8: " + ByteBufUtil.hexDump(bytes, 0, Math.min(length, 32)));
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    /** Reads two-byte-length binary data (section 1.5.6). */
    static byte[] readBinary(ByteBuf in, String what) {
        byte[] bytes = new byte[readLength(in, what)];
        in.readBytes(bytes);
        return bytes;
    }

    private static int readLength(ByteBuf in, String what) {
        if (in.readableBytes() < 2) {
            throw malformed(what + " runs past the end of the packet");
        }
        int length = in.readUnsignedShort();
        if (length > in.readableBytes()) {
            throw malformed(what + " of " + length + " bytes runs past the end of the packet");
        }
        return length;
    }

    static int readUnsignedShort(ByteBuf in, String what) {
        if (in.readableBytes() < 2) {
            throw malformed(what + " runs past the end of the packet");
        }
        return in.readUnsignedShort();
    }

    static int readUnsignedByte(ByteBuf in, String what) {
        if (!in.isReadable()) {
            throw malformed(what + " runs past the end of the packet");
        }
        return in.readUnsignedByte();
    }

    /**
     * {@return the encoded size of {@code text} as an MQTT string, length prefix included}
     *
     * @throws EncoderException if it is longer than 65535 bytes, contains
     *                                                U+0000 or an unpaired surrogate
     */
    static int stringSize(String text, String what) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                throw new EncoderException(what + " contains U+0000");
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    throw new EncoderException(what + " contains an unpaired surrogate at " + i);
                }
            }
        }
        int bytes = ByteBufUtil.utf8Bytes(text);
        if (bytes > 0xffff) {
            throw new EncoderException(what + " is " + bytes + " bytes, more than 65535");
        }
        return 2 + bytes;
    }

    static void writeString(ByteBuf out, String text) {
        int lengthIndex = out.writerIndex();
        out.writeShort(0);
        int written = ByteBufUtil.writeUtf8(out, text);
        out.setShort(lengthIndex, written);
    }

    static void writeBinary(ByteBuf out, byte[] bytes) {
        out.writeShort(bytes.length);
        out.writeBytes(bytes);
    }

    static void checkPacketId(int packetId) {
        if (packetId < 1 || packetId > 0xffff) {
            throw new IllegalArgumentException("packet identifier must be 1 to 65535: " + packetId);
        }
    }

    static void checkByte(String what, int value) {
        if (value < 0 || value > 0xff) {
            throw new IllegalArgumentException(what + " must be 0 to 255: " + value);
        }
    }

    static MqttDecoderException malformed(String message) {
        return new MqttDecoderException(MALFORMED_PACKET, message);
    }

    static MqttDecoderException protocolError(String message) {
        return new MqttDecoderException(MqttReasonCode.PROTOCOL_ERROR, message);
    }
}
