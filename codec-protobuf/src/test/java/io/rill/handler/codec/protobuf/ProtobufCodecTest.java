package io.rill.handler.codec.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.Cuttings;
import io.rill.handler.codec.DecoderException;
import io.rill.handler.codec.ProtobufVarint32FrameDecoder;
import io.rill.handler.codec.TooLongFrameException;

class ProtobufCodecTest {

    static Struct sample() {
        return Struct.newBuilder()
                .putFields("name", Value.newBuilder().setStringValue("rill").build())
                .putFields("port", Value.newBuilder().setNumberValue(8080).build())
                .putFields("tags", Value.newBuilder().setListValue(ListValue.newBuilder()
                        .addValues(Value.newBuilder().setStringValue("fast"))
                        .addValues(Value.newBuilder().setBoolValue(true))).build())
                .build();
    }

    /** A Value nested {@code depth} lists deep. */
    static Value nested(int depth) {
        Value v = Value.newBuilder().setStringValue("bottom").build();
        for (int i = 0; i < depth; i++) {
            v = Value.newBuilder().setListValue(ListValue.newBuilder().addValues(v)).build();
        }
        return v;
    }

    private static byte[] encoded(Object message, ProtobufEncoder encoder) {
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        ch.writeOutbound(message);
        ByteBuf out = ch.readOutbound();
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
            ch.finish();
        }
    }

    /** The delimited stream's messages when it arrives in {@code pieces}, plus whatever errors came. */
    private static List<Object> decodeDelimited(List<byte[]> pieces, ProtobufDecoder decoder, boolean direct) {
        EmbeddedChannel ch = new EmbeddedChannel(new ProtobufVarint32FrameDecoder(), decoder);
        List<Object> got = new ArrayList<>();
        for (byte[] p : pieces) {
            ByteBuf buf = direct ? Unpooled.directBuffer(p.length).writeBytes(p) : Unpooled.wrappedBuffer(p);
            try {
                ch.writeInbound(buf);
            } catch (DecoderException e) {
                got.add(e);
            }
            for (Object m; (m = ch.readInbound()) != null; ) {
                got.add(m);
            }
        }
        ch.finishAndReleaseAll();
        return got;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    @Test
    void plainIsTheMessagesOwnBytesAndDelimitedPrefixesItsLength() {
        Struct s = sample();
        assertArrayEquals(s.toByteArray(), encoded(s, ProtobufEncoder.PLAIN));
        byte[] delimited = encoded(s, ProtobufEncoder.DELIMITED);
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        try {
            s.writeDelimitedTo(expected);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertArrayEquals(expected.toByteArray(), delimited);
        assertArrayEquals(delimited, encoded(s.toBuilder(), ProtobufEncoder.DELIMITED), "a builder is built first");
        assertArrayEquals(new byte[] {0}, encoded(Struct.getDefaultInstance(), ProtobufEncoder.DELIMITED));
    }

    @Test
    void aDelimitedStreamDecodesWholeByteByByteSplitAtEveryIndexAndInRandomPieces() {
        Struct s = sample();
        byte[] one = encoded(s, ProtobufEncoder.DELIMITED);
        byte[] stream = concat(one, encoded(Struct.getDefaultInstance(), ProtobufEncoder.DELIMITED), one);
        List<Object> expected = List.of(s, Struct.getDefaultInstance(), s);
        ProtobufDecoder decoder = new ProtobufDecoder(Struct.getDefaultInstance());
        for (boolean direct : new boolean[] {false, true}) {
            assertEquals(expected, decodeDelimited(List.of(stream), decoder, direct));
            for (List<byte[]> way : Cuttings.of(stream, 50)) {
                assertEquals(expected, decodeDelimited(way, decoder, direct), way.size() + " pieces");
            }
        }
    }

    @Test
    void pb_01_aFrameOverMaxMessageBytesIsRefusedUnparsedAndTheNextDecodes() {
        Struct s = sample();
        int size = s.getSerializedSize();
        ProtobufDecoder decoder = ProtobufDecoder.builder(Struct.getDefaultInstance()).maxMessageBytes(size - 1).build();
        byte[] small = encoded(Struct.getDefaultInstance(), ProtobufEncoder.DELIMITED);
        List<Object> got = decodeDelimited(List.of(concat(encoded(s, ProtobufEncoder.DELIMITED), small)), decoder, false);
        // One read, two frames: the first fails, the second still arrives (read back after the failure).
        assertInstanceOf(TooLongFrameException.class, got.get(0));
        assertTrue(((Exception) got.get(0)).getMessage().contains("over maxMessageBytes (" + (size - 1) + ")"),
                ((Exception) got.get(0)).getMessage());
        assertEquals(List.of(Struct.getDefaultInstance()), got.subList(1, got.size()));
    }

    @Test
    void pb_02_aMalformedMessageFailsNamingItsTypeAndTheNextDecodes() {
        // Field 1 (fields map entry), length 5, but only 2 bytes follow: truncated inside the frame.
        byte[] truncated = {3, 0x0A, 0x05, 0x0A};
        byte[] badTag = {2, 0x00, 0x01}; // tag 0 is never valid
        byte[] good = encoded(sample(), ProtobufEncoder.DELIMITED);
        ProtobufDecoder decoder = new ProtobufDecoder(Struct.getDefaultInstance());
        for (byte[] bad : List.of(truncated, badTag)) {
            List<Object> got = decodeDelimited(List.of(bad, good), decoder, false);
            ProtobufDecoderException e = assertInstanceOf(ProtobufDecoderException.class, got.get(0));
            assertTrue(e.getMessage().startsWith("not a valid com.google.protobuf.Struct ("), e.getMessage());
            assertEquals(List.of(sample()), got.subList(1, got.size()));
        }
    }

    @Test
    void pb_03_nestingDeeperThanTheRecursionLimitFails() {
        Struct deep = Struct.newBuilder().putFields("deep", nested(150)).build();
        byte[] frame = encoded(deep, ProtobufEncoder.DELIMITED);
        List<Object> refused = decodeDelimited(List.of(frame), new ProtobufDecoder(Struct.getDefaultInstance()), true);
        ProtobufDecoderException e = assertInstanceOf(ProtobufDecoderException.class, refused.get(0));
        assertTrue(e.getMessage().contains("recursion"), e.getMessage());
        ProtobufDecoder deeper = ProtobufDecoder.builder(Struct.getDefaultInstance()).recursionLimit(400).build();
        assertEquals(List.of(deep), decodeDelimited(List.of(frame), deeper, true));
    }

    @Test
    void wrongUseIsRefusedWhenBuilt() {
        assertThrows(NullPointerException.class, () -> new ProtobufDecoder(null));
        assertThrows(IllegalArgumentException.class,
                () -> ProtobufDecoder.builder(Struct.getDefaultInstance()).maxMessageBytes(0));
        assertThrows(IllegalArgumentException.class,
                () -> ProtobufDecoder.builder(Struct.getDefaultInstance()).recursionLimit(-1));
        EmbeddedChannel ch = new EmbeddedChannel(ProtobufEncoder.DELIMITED);
        ch.writeOutbound("not a message"); // passes by untouched
        assertEquals("not a message", ch.readOutbound());
        assertNull(ch.readOutbound());
        ch.finish();
    }
}
