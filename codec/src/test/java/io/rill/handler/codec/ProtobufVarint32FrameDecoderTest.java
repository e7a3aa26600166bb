package io.rill.handler.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.embedded.EmbeddedChannel;

class ProtobufVarint32FrameDecoderTest {

    @Test
    void roundTripsWithThePrependerAcrossVarintSizes() {
        Random random = new Random(3);
        int[] sizes = {0, 1, 127, 128, 300, 16_383, 16_384, 20_000};
        EmbeddedChannel encoder = new EmbeddedChannel(new ProtobufVarint32LengthFieldPrepender());
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        List<String> expected = new ArrayList<>();
        for (int size : sizes) {
            byte[] f = new byte[size];
            random.nextBytes(f);
            assertTrue(encoder.writeOutbound(encoder.alloc().buffer(Math.max(1, size)).writeBytes(f)));
            for (ByteBuf part; (part = encoder.readOutbound()) != null; part.release()) {
                wire.writeBytes(ByteBufUtil.getBytes(part));
            }
            expected.add(ByteBufUtil.hexDump(f));
        }
        assertFalse(encoder.finish());
        expected.add("|end");
        assertEquals(expected, DecoderRun.decodeEveryWay(() -> new ProtobufVarint32FrameDecoder(1 << 20),
                wire.toByteArray()));
    }

    @Test
    void varintSizesMatchTheEncoding() {
        assertEquals(1, ProtobufVarint32LengthFieldPrepender.computeRawVarint32Size(0));
        assertEquals(1, ProtobufVarint32LengthFieldPrepender.computeRawVarint32Size(127));
        assertEquals(2, ProtobufVarint32LengthFieldPrepender.computeRawVarint32Size(128));
        assertEquals(5, ProtobufVarint32LengthFieldPrepender.computeRawVarint32Size(Integer.MAX_VALUE));
        assertEquals(5, ProtobufVarint32LengthFieldPrepender.computeRawVarint32Size(-1));
    }

    @Test
    void aVarintOfMoreThanFiveBytesIsMalformed() {
        EmbeddedChannel ch = new EmbeddedChannel(new ProtobufVarint32FrameDecoder());
        CorruptedFrameException e = assertThrows(CorruptedFrameException.class, () -> ch.writeInbound(
                ch.alloc().buffer().writeBytes(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1})));
        assertTrue(e.getMessage().contains("8080808080"), e.getMessage());
        ch.writeInbound(ch.alloc().buffer().writeByte(1).writeByte(7));
        assertNull(ch.readInbound(), "nothing decodes after a malformed varint");
        assertFalse(ch.finish());
    }

    @Test
    void aVarintWithBitThirtyOneSetIsANegativeLength() {
        EmbeddedChannel ch = new EmbeddedChannel(new ProtobufVarint32FrameDecoder());
        CorruptedFrameException e = assertThrows(CorruptedFrameException.class, () -> ch.writeInbound(
                ch.alloc().buffer().writeBytes(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f})));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        assertFalse(ch.finish());
    }

    @Test
    void aFrameOverTheMaximumIsSkippedAndTheNextOneDecodes() {
        byte[] input = new byte[2 + 200 + 1 + 2];
        input[0] = (byte) 0xc8; // 200 = 0b1_1001000
        input[1] = 0x01;
        input[202] = 2;
        input[203] = 'o';
        input[204] = 'k';
        assertEquals(DecoderRun.hex("!TooLongFrameException", "ok", "|end"),
                DecoderRun.decodeEveryWay(() -> new ProtobufVarint32FrameDecoder(100), input));
    }
}
