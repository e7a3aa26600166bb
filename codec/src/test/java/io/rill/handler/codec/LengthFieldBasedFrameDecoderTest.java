package io.rill.handler.codec;

import static io.rill.handler.codec.DecoderRun.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.embedded.EmbeddedChannel;

class LengthFieldBasedFrameDecoderTest {

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Frames written by the prepender come back whole from the decoder, for every field size and byte order. */
    @ParameterizedTest
    @CsvSource({"1,BIG", "2,BIG", "3,BIG", "4,BIG", "8,BIG", "1,LITTLE", "2,LITTLE", "3,LITTLE", "4,LITTLE", "8,LITTLE"})
    void roundTripsWithThePrependerHoweverTheBytesArrive(int fieldLength, String order) {
        ByteOrder byteOrder = order.equals("BIG") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        Random random = new Random(fieldLength * 31L + order.length());
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            byte[] f = new byte[random.nextInt(fieldLength == 1 ? 200 : 600)];
            random.nextBytes(f);
            frames.add(f);
        }
        EmbeddedChannel encoder = new EmbeddedChannel(new LengthFieldPrepender(byteOrder, fieldLength, 0, false));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        List<String> expected = new ArrayList<>();
        for (byte[] f : frames) {
            assertTrue(encoder.writeOutbound(encoder.alloc().buffer().writeBytes(f)));
            for (ByteBuf part; (part = encoder.readOutbound()) != null; part.release()) {
                wire.writeBytes(ByteBufUtil.getBytes(part));
            }
            expected.add(ByteBufUtil.hexDump(f));
        }
        assertFalse(encoder.finish());
        expected.add("|end");
        List<String> events = DecoderRun.decodeEveryWay(() -> new LengthFieldBasedFrameDecoder(byteOrder, 1 << 16, 0,
                fieldLength, 0, fieldLength, true), wire.toByteArray());
        assertEquals(expected, events);
    }

    @Test
    void adjustmentAndStrippingFollowTheHeaderLayout() {
        // type byte, 2-byte length that counts the whole frame (header included), body; keep the type.
        byte[] input = concat(bytes(7, 0, 6), ascii("abc"), bytes(9, 0, 3));
        List<String> events = DecoderRun.decodeEveryWay(
                () -> new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, 100, 1, 2, -3, 0, true), input);
        List<String> expected = new ArrayList<>();
        expected.add("070006616263");
        expected.add("090003");
        expected.add("|end");
        assertEquals(expected, events);

        // 2-byte length of the body after a 2-byte magic; strip magic and length.
        input = concat(ascii("MG"), bytes(0, 2), ascii("hi"), ascii("MG"), bytes(0, 0));
        events = DecoderRun.decodeEveryWay(
                () -> new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, 100, 2, 2, 0, 4, true), input);
        assertEquals(List.of(ByteBufUtil.hexDump(ascii("hi")), "", "|end"), events);
    }

    @Test
    void anOversizedFrameIsSkippedAndReportedOnceAndLaterFramesStillDecode() {
        byte[] big = new byte[300];
        byte[] input = concat(bytes(0, 3), ascii("one"), bytes(1, 44), big, bytes(0, 3), ascii("two"));
        for (boolean failFast : new boolean[] {true, false}) {
            List<String> events = DecoderRun.decodeEveryWay(() -> new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN,
                    100, 0, 2, 0, 2, failFast), input);
            assertEquals(hex("one", "!TooLongFrameException", "two", "|end"), events, "failFast " + failFast);
        }
    }

    @Test
    void failFastReportsBeforeTheOversizedFrameHasArrived() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, 100, 0, 4, 0, 4,
                true));
        TooLongFrameException e = assertThrows(TooLongFrameException.class,
                () -> ch.writeInbound(ch.alloc().buffer().writeInt(1_000_000).writeBytes(new byte[10])));
        assertTrue(e.getMessage().contains("1000004"), e.getMessage());
        // The rest of the oversized frame is skipped as it arrives, never buffered.
        ch.writeInbound(ch.alloc().buffer().writeBytes(new byte[999_990]));
        ch.writeInbound(ch.alloc().buffer().writeInt(2).writeByte('o').writeByte('k'));
        ByteBuf frame = ch.readInbound();
        assertEquals("ok", frame.toString(StandardCharsets.US_ASCII));
        frame.release();
        assertFalse(ch.finish());
    }

    @Test
    void aNegativeEightByteLengthIsACorruptFrameQuotingTheValue() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(1000, 0, 8));
        CorruptedFrameException e = assertThrows(CorruptedFrameException.class,
                () -> ch.writeInbound(ch.alloc().buffer().writeLong(-5).writeBytes(new byte[20])));
        assertTrue(e.getMessage().contains("-5"), e.getMessage());
        // Nothing after a corrupt length can be trusted: later bytes are dropped, not decoded.
        ch.writeInbound(ch.alloc().buffer().writeLong(1).writeByte(1));
        assertNull(ch.readInbound());
        assertFalse(ch.finish());
    }

    @Test
    void aLengthThatOverflowsWhenAdjustedIsACorruptFrame() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, 1000, 0, 8,
                100, 0, true));
        CorruptedFrameException e = assertThrows(CorruptedFrameException.class,
                () -> ch.writeInbound(ch.alloc().buffer().writeLong(Long.MAX_VALUE - 1)));
        assertTrue(e.getMessage().contains(String.valueOf(Long.MAX_VALUE - 1)), e.getMessage());
        assertFalse(ch.finish());
    }

    @Test
    void aLengthShorterThanTheHeaderIsACorruptFrame() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, 1000, 0, 2,
                -4, 0, true));
        CorruptedFrameException e = assertThrows(CorruptedFrameException.class,
                () -> ch.writeInbound(ch.alloc().buffer().writeShort(1)));
        assertTrue(e.getMessage().contains("length field 1"), e.getMessage());
        assertFalse(ch.finish());
    }

    @Test
    void stripMoreThanTheFrameIsACorruptFrame() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, 1000, 0, 1,
                0, 5, true));
        assertThrows(CorruptedFrameException.class, () -> ch.writeInbound(ch.alloc().buffer().writeByte(1).writeByte(0)));
        assertFalse(ch.finish());
    }

    @Test
    void unsignedFourByteLengthsBeyondTheMaximumAreTooLongNotNegative() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(1000, 0, 4));
        TooLongFrameException e = assertThrows(TooLongFrameException.class,
                () -> ch.writeInbound(ch.alloc().buffer().writeInt(0xffffffff)));
        assertTrue(e.getMessage().contains("4294967299"), e.getMessage());
        assertFalse(ch.finish());
    }

    @Test
    void thePrependerRejectsALengthItsFieldCannotHold() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldPrepender(1));
        ByteBuf big = ch.alloc().buffer().writeBytes(new byte[256]);
        assertThrows(EncoderException.class, () -> ch.writeOutbound(big));
        assertEquals(0, big.refCnt());
        assertFalse(ch.finish());
    }

    @Test
    void thePrependerCanCountItsOwnField() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldPrepender(ByteOrder.LITTLE_ENDIAN, 2, 1, true));
        assertTrue(ch.writeOutbound(ch.alloc().buffer().writeBytes(ascii("abc"))));
        ByteBuf header = ch.readOutbound();
        assertEquals("0600", ByteBufUtil.hexDump(header));
        header.release();
        ByteBuf body = ch.readOutbound();
        assertEquals("abc", body.toString(StandardCharsets.US_ASCII));
        body.release();
        assertFalse(ch.finish());
    }

    @Test
    void fixedLengthFramesAreTheSameHoweverTheBytesArrive() {
        List<String> events = DecoderRun.decodeEveryWay(() -> new FixedLengthFrameDecoder(4), ascii("abcdefghij"));
        assertEquals(hex("abcd", "efgh", "|end"), events);
        assertThrows(IllegalArgumentException.class, () -> new FixedLengthFrameDecoder(0));
    }

    @Test
    void badConfigurationsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new LengthFieldBasedFrameDecoder(100, 0, 5));
        assertThrows(IllegalArgumentException.class, () -> new LengthFieldBasedFrameDecoder(0, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> new LengthFieldBasedFrameDecoder(4, 3, 2));
        assertThrows(IllegalArgumentException.class, () -> new LengthFieldPrepender(5));
    }
}
