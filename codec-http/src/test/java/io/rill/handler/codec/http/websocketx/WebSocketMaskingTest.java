package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.CompositeByteBuf;
import io.rill.buffer.Unpooled;

class WebSocketMaskingTest {

    private static final int KEY = 0x8a3f_5c01;

    /** Masking by the definition of RFC 6455 §5.3: octet i XOR key octet (i mod 4). */
    private static byte[] masked(byte[] payload) {
        byte[] key = {(byte) (KEY >>> 24), (byte) (KEY >>> 16), (byte) (KEY >>> 8), (byte) KEY};
        byte[] out = new byte[payload.length];
        for (int i = 0; i < payload.length; i++) {
            out[i] = (byte) (payload[i] ^ key[i % 4]);
        }
        return out;
    }

    @Test
    void copyMaskedMatchesTheDefinitionAtEveryLengthAroundTheThresholds() {
        Random random = new Random(7);
        int[] lengths = {0, 1, 3, 7, 8, 9, 63, 64, 65, 125, 126, 255, 256, 257, 1000, 8193, 16_384, 20_003};
        for (int length : lengths) {
            byte[] payload = new byte[length];
            random.nextBytes(payload);
            for (boolean direct : new boolean[] {false, true}) {
                ByteBuf src = direct ? Unpooled.directBuffer(length + 5) : Unpooled.buffer(length + 5);
                ByteBuf dst = direct ? Unpooled.buffer(length + 2) : Unpooled.directBuffer(length + 2);
                try {
                    src.writeBytes(new byte[5]).writeBytes(payload); // an offset that is not a multiple of 8
                    dst.writeShort(0);
                    WebSocketMasking.copyMasked(src, 5, length, KEY, dst);
                    byte[] got = new byte[length];
                    dst.getBytes(2, got);
                    assertArrayEquals(masked(payload), got, "length " + length + (direct ? " direct" : " heap"));
                    WebSocketMasking.maskInPlace(dst, 2, length, KEY, 0);
                    dst.getBytes(2, got);
                    assertArrayEquals(payload, got, "unmasked again, length " + length);
                } finally {
                    src.release();
                    dst.release();
                }
            }
        }
    }

    @Test
    void masksASliceAndACompositeInTheirOwnMemory() {
        byte[] payload = new byte[1000];
        new Random(5).nextBytes(payload);
        ByteBuf parent = Unpooled.directBuffer(1100).writeBytes(new byte[100]).writeBytes(payload);
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        composite.addComponent(true, Unpooled.buffer(400).writeBytes(payload, 0, 400));
        composite.addComponent(true, Unpooled.directBuffer(600).writeBytes(payload, 400, 600));
        try {
            ByteBuf slice = parent.slice(100, 1000);
            WebSocketMasking.maskInPlace(slice, 0, 1000, KEY, 0);
            WebSocketMasking.maskInPlace(composite, 0, 1000, KEY, 0);
            byte[] got = new byte[1000];
            parent.getBytes(100, got);
            assertArrayEquals(masked(payload), got, "slice");
            composite.getBytes(0, got);
            assertArrayEquals(masked(payload), got, "composite");
        } finally {
            parent.release();
            composite.release();
        }
    }

    @Test
    void maskInPlaceContinuesTheKeyAtAnyOffset() {
        byte[] payload = new byte[300];
        new Random(3).nextBytes(payload);
        ByteBuf buf = Unpooled.buffer(300).writeBytes(payload);
        try {
            WebSocketMasking.maskInPlace(buf, 0, 101, KEY, 0); // the pieces a decoder would see
            WebSocketMasking.maskInPlace(buf, 101, 150, KEY, 101);
            WebSocketMasking.maskInPlace(buf, 251, 49, KEY, 251);
            byte[] got = new byte[300];
            buf.getBytes(0, got);
            assertArrayEquals(masked(payload), got);
        } finally {
            buf.release();
        }
    }

    @Test
    void maskKeysDoNotRepeatAcrossReserveRefills() {
        java.util.Set<Integer> keys = new java.util.HashSet<>();
        for (int i = 0; i < 2000; i++) { // several 256-key reserves
            keys.add(WebSocketMasking.newMaskKey());
        }
        assertTrue(keys.size() > 1990, "keys drawn from 32 random bits rarely collide; got " + keys.size() + " distinct");
    }
}
