package io.rill.handler.codec;

import static io.rill.handler.codec.DecoderRun.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.CompositeByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.channel.socket.ChannelInputShutdownEvent;

class ByteToMessageDecoderTest {

    /** Frames of 3 bytes, as retained slices; remembers how often decodeLast ran. */
    static final class Triples extends ByteToMessageDecoder {
        int lastCalls;

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() >= 3) {
                out.add(in.readRetainedSlice(3));
            }
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            lastCalls++;
            if (in.isReadable()) {
                out.add("partial:" + in.readCharSequence(in.readableBytes(), StandardCharsets.US_ASCII));
            }
        }

        ByteBuf buffered() {
            return internalBuffer();
        }
    }

    private static ByteBuf ascii(EmbeddedChannel ch, String s) {
        return ch.alloc().buffer().writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static String readString(EmbeddedChannel ch) {
        Object msg = ch.readInbound();
        try {
            return msg instanceof ByteBuf b ? b.toString(StandardCharsets.US_ASCII) : String.valueOf(msg);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Test
    void framesAreTheSameHoweverTheBytesArrive() {
        List<String> events = DecoderRun.decodeEveryWay(Triples::new, "abcdefghijk".getBytes(StandardCharsets.US_ASCII));
        List<String> expected = hex("abc", "def", "ghi");
        expected.add(3, "partial:jk");
        expected.add("|end");
        assertEquals(expected, events);
    }

    @Test
    void decodeLastRunsOnceWhenTheInputShutsDownAndAgainNotWhenTheChannelCloses() {
        Triples decoder = new Triples();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(ascii(ch, "abcd"));
        assertEquals("abc", readString(ch));
        ch.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        assertEquals("partial:d", readString(ch));
        assertFalse(ch.finish());
        assertEquals(1, decoder.lastCalls);
    }

    @Test
    void decodeLastGetsAnEmptyBufferWhenNothingIsLeft() {
        Triples decoder = new Triples();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(ascii(ch, "abc"));
        assertEquals("abc", readString(ch));
        assertFalse(ch.finish());
        assertEquals(1, decoder.lastCalls);
    }

    @Test
    void producingWithoutConsumingIsADecoderException() {
        EmbeddedChannel ch = new EmbeddedChannel(new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                out.add("nothing consumed");
            }
        });
        DecoderException e = assertThrows(DecoderException.class, () -> ch.writeInbound(ascii(ch, "x")));
        assertTrue(e.getMessage().contains("without consuming"), e.getMessage());
        assertEquals("nothing consumed", ch.readInbound());
        // The broken decoder breaks the same way on the remaining byte at the end of input.
        assertThrows(DecoderException.class, ch::finishAndReleaseAll);
    }

    @Test
    void otherExceptionsArriveWrappedInADecoderException() {
        IllegalStateException cause = new IllegalStateException("boom");
        EmbeddedChannel ch = new EmbeddedChannel(new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                in.skipBytes(in.readableBytes());
                throw cause;
            }
        });
        DecoderException e = assertThrows(DecoderException.class, () -> ch.writeInbound(ascii(ch, "x")));
        assertSame(cause, e.getCause());
        assertFalse(ch.finish());
    }

    @Test
    void singleDecodeDecodesOneFramePerRead() {
        Triples decoder = new Triples();
        decoder.setSingleDecode(true);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(ascii(ch, "abcdefg"));
        assertEquals("abc", readString(ch));
        assertNull(ch.readInbound());
        ch.writeInbound(ascii(ch, "h"));
        assertEquals("def", readString(ch));
        assertNull(ch.readInbound());
        assertTrue(ch.finish());
        assertEquals("partial:gh", readString(ch));
        assertNull(ch.readInbound());
    }

    @Test
    void singleDecodeStillDecodesEverythingLeftAtTheEndOfInput() {
        Triples decoder = new Triples();
        decoder.setSingleDecode(true);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(ascii(ch, "abcdefghijk"));
        assertEquals("abc", readString(ch));
        assertTrue(ch.finish());
        assertEquals("def", readString(ch));
        assertEquals("ghi", readString(ch));
        assertEquals("partial:jk", readString(ch));
    }

    /** Decodes a one-byte header, then leaves the pipeline: the rest is for the next handler. */
    static final class HeaderThenLeave extends ByteToMessageDecoder {
        boolean removed0;

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.isReadable()) {
                out.add("header:" + (char) in.readByte());
                ctx.pipeline().remove(this);
            }
        }

        @Override
        protected void handlerRemoved0(ChannelHandlerContext ctx) {
            removed0 = true;
        }
    }

    @Test
    void removingItselfHandsTheRemainingBytesToTheNextHandlerAfterItsOutput() {
        HeaderThenLeave decoder = new HeaderThenLeave();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(ascii(ch, "Hrest"));
        assertEquals("header:H", readString(ch));
        assertEquals("rest", readString(ch));
        assertTrue(decoder.removed0);
        ch.writeInbound(ascii(ch, "more"));
        assertEquals("more", readString(ch));
        assertFalse(ch.finish());
    }

    @Test
    void removedFromOutsideItForwardsWhatItBufferedAndReleasesNothingTwice() {
        Triples decoder = new Triples();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(ascii(ch, "ab"));
        assertNull(ch.readInbound());
        ch.pipeline().remove(decoder);
        assertEquals("ab", readString(ch));
        assertFalse(ch.finish());
    }

    @Test
    void closeFromDownstreamWhileInputRemainsIsSafe() {
        // Re-entrance: a handler closes the channel on the first frame while more frames wait; the
        // decoder stops, passes its leftover to decodeLast once, and releases its input.
        List<String> seen = new ArrayList<>();
        Triples decoder = new Triples();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                seen.add(msg instanceof ByteBuf b ? b.toString(StandardCharsets.US_ASCII) : String.valueOf(msg));
                ReferenceCountUtil.release(msg);
                ctx.close();
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                seen.add("inactive");
            }
        });
        ByteBuf input = ascii(ch, "abcdefghij");
        ch.writeInbound(input);
        assertEquals(List.of("abc", "def", "ghi", "partial:j", "inactive"), seen);
        assertEquals(0, input.refCnt());
        assertEquals(1, decoder.lastCalls);
        assertFalse(ch.isOpen());
    }

    @Test
    void bytesFedBackFromDownstreamWhileFiringAreDecodedInOrder() {
        List<String> seen = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new Triples(), new ChannelHandler() {
            boolean fedBack;

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                seen.add(((ByteBuf) msg).toString(StandardCharsets.US_ASCII));
                ReferenceCountUtil.release(msg);
                if (!fedBack) {
                    fedBack = true;
                    ctx.pipeline().fireChannelRead(ctx.alloc().buffer().writeBytes("ghi".getBytes(StandardCharsets.US_ASCII)));
                }
            }
        });
        ch.writeInbound(ascii(ch, "abcdef"));
        assertEquals(List.of("abc", "def", "ghi"), seen);
        assertFalse(ch.finish());
    }

    @Test
    void compositeCumulationChainsReadsWithoutCopying() {
        Triples decoder = new Triples();
        decoder.setCumulator(Cumulator.COMPOSITE);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(ascii(ch, "a"));
        ch.writeInbound(ascii(ch, "b"));
        assertInstanceOf(CompositeByteBuf.class, decoder.buffered());
        ch.writeInbound(ascii(ch, "cd"));
        assertEquals("abc", readString(ch));
        assertTrue(ch.finish());
        assertEquals("partial:d", readString(ch));
    }

    @Test
    void aCumulationThatIsNeverFullyConsumedStaysSmall() {
        // Each read brings one byte and the decoder consumes one, always leaving one behind: without
        // the periodic discard the consumed bytes would pile up in front of the reader index.
        ByteToMessageDecoder keepsOne = new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                if (in.readableBytes() >= 2) {
                    in.skipBytes(1);
                }
            }
        };
        keepsOne.setDiscardAfterReads(4);
        EmbeddedChannel ch = new EmbeddedChannel(keepsOne);
        for (int i = 0; i < 10_000; i++) {
            ch.pipeline().fireChannelRead(ch.alloc().buffer(1).writeByte(i));
        }
        assertEquals(1, keepsOne.actualReadableBytes());
        assertTrue(keepsOne.internalBuffer().capacity() < 1024, "capacity " + keepsOne.internalBuffer().capacity());
        assertFalse(ch.finish());
    }

    /** Frames of 4 bytes, read out as ints: nothing downstream shares the cumulation. */
    static final class Ints extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            while (in.readableBytes() >= 4) {
                out.add(in.readInt());
            }
        }

        ByteBuf buffered() {
            return internalBuffer();
        }
    }

    @Test
    void aFewBytesLeftInABigReadBufferMoveToASmallOneWhenTheBurstEnds() {
        // A peer that stops mid-frame must not keep a whole read buffer alive for its last bytes.
        Ints decoder = new Ints();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ByteBuf read = ch.alloc().buffer(64 * 1024);
        for (int i = 0; i < 16_000; i++) {
            read.writeInt(i);
        }
        read.writeShort(0x1234);
        ch.writeInbound(read); // one read, then channelReadComplete
        assertEquals(2, decoder.actualReadableBytes());
        assertTrue(decoder.buffered().capacity() < 1024, "capacity " + decoder.buffered().capacity());
        for (int i = 0; i < 16_000; i++) {
            assertEquals(i, (Integer) ch.readInbound());
        }
        ch.writeInbound(ch.alloc().buffer(2).writeShort(0x5678));
        assertEquals(0x12345678, (Integer) ch.readInbound());
        assertFalse(ch.finish());
    }

    @Test
    void aCumulationStillOverAQuarterFullStaysWhereItIs() {
        ByteToMessageDecoder blocksOf32KiB = new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                if (in.readableBytes() >= 32 * 1024) {
                    in.skipBytes(32 * 1024);
                    out.add("block");
                }
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(blocksOf32KiB);
        ByteBuf read = ch.alloc().buffer(64 * 1024, 64 * 1024).writeZero(32 * 1024 + 20_000);
        ch.writeInbound(read);
        assertEquals("block", ch.readInbound());
        assertSame(read, blocksOf32KiB.internalBuffer(), "20,000 of 65,536 bytes: the read buffer stays the cumulation");
        assertEquals(20_000, blocksOf32KiB.actualReadableBytes());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void theCumulationIsReleasedWhenTheChannelCloses() {
        Triples decoder = new Triples();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ByteBuf input = ascii(ch, "ab");
        ch.pipeline().fireChannelRead(input);
        assertEquals(1, input.refCnt());
        assertTrue(ch.finish());
        assertEquals(0, input.refCnt());
        assertEquals("partial:ab", readString(ch));
    }

    @Test
    void nonBufferMessagesPassUntouched() {
        EmbeddedChannel ch = new EmbeddedChannel(new Triples());
        ch.writeInbound("hello");
        assertEquals("hello", ch.readInbound());
        assertFalse(ch.finish());
    }

    @ChannelHandler.Sharable
    static final class SharableDecoder extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        }
    }

    @Test
    void aSharableDecoderIsRejected() {
        assertThrows(IllegalStateException.class, SharableDecoder::new);
    }

    /** Emits all of the bytes received as one message once there are four: the cumulation itself when it may. */
    static final class WholeCumulation extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() >= 4) {
                out.add(handOver(in) ? in : in.readRetainedSlice(in.readableBytes()));
            }
        }
    }

    @Test
    void aDecoderMayTakeTheCumulationItselfAsAMessageAndTheNextReadStartsAnew() {
        EmbeddedChannel ch = new EmbeddedChannel(new WholeCumulation());
        for (int i = 0; i < 3; i++) {
            ByteBuf read = Unpooled.directBuffer(8).writeInt(i);
            ch.writeInbound(read);
            ByteBuf message = ch.readInbound();
            assertSame(read, message);
            assertEquals(i, message.readInt());
            assertTrue(message.release());
        }
        ByteBuf half = Unpooled.directBuffer(8).writeShort(0x0102);
        ch.writeInbound(half);
        ch.writeInbound(Unpooled.directBuffer(8).writeShort(0x0304));
        ByteBuf joined = ch.readInbound();
        assertEquals(0x01020304, joined.getInt(joined.readerIndex()));
        assertEquals(4, joined.readableBytes());
        assertTrue(joined.release(), "the message held the last reference to the bytes");
        assertFalse(ch.finish());
    }

    @Test
    void aCumulationSomeoneElseStillHoldsIsNotHandedOver() {
        EmbeddedChannel ch = new EmbeddedChannel(new WholeCumulation());
        ByteBuf read = Unpooled.directBuffer(8).writeInt(7);
        ByteBuf kept = read.retainedDuplicate();
        ch.writeInbound(read);
        ByteBuf message = ch.readInbound();
        assertNotSame(read, message);
        message.release();
        assertEquals(7, kept.readInt());
        assertTrue(kept.release());
        assertFalse(ch.finish());
    }
}
