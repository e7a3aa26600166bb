package io.rill.handler.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;

/** The message-to-message and message-to-byte bases, the two codecs, the output list and DecoderResult. */
class MessageCodecTest {

    static final class IntToString extends MessageToMessageDecoder<Integer> {
        @Override
        protected void decode(ChannelHandlerContext ctx, Integer msg, List<Object> out) {
            out.add("#" + msg);
        }
    }

    static final class SplitInTwo extends MessageToMessageEncoder<String> {
        @Override
        protected void encode(ChannelHandlerContext ctx, String msg, List<Object> out) {
            out.add(msg.substring(0, 1));
            out.add(msg.substring(1));
        }
    }

    static final class IntEncoder extends MessageToByteEncoder<Integer> {
        @Override
        protected void encode(ChannelHandlerContext ctx, Integer msg, ByteBuf out) {
            out.writeInt(msg);
        }
    }

    @Test
    void aMessageDecoderConvertsItsTypeAndPassesOthersOn() {
        EmbeddedChannel ch = new EmbeddedChannel(new IntToString());
        ch.writeInbound(7, "x", 8);
        assertEquals("#7", ch.readInbound());
        assertEquals("x", ch.readInbound());
        assertEquals("#8", ch.readInbound());
        assertFalse(ch.finish());
    }

    @Test
    void aMessageDecoderReleasesItsInput() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageDecoder<ByteBuf>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
                out.add(msg.readableBytes());
            }
        });
        ByteBuf buf = ch.alloc().buffer().writeZero(3);
        ch.writeInbound(buf);
        assertEquals(3, (int) ch.readInbound());
        assertEquals(0, buf.refCnt());
        assertFalse(ch.finish());
    }

    @Test
    void severalEncodedMessagesCompleteTheWriteTogether() {
        EmbeddedChannel ch = new EmbeddedChannel(new SplitInTwo());
        Future<Void> write = ch.writeAndFlush("abc");
        ch.runPendingTasks();
        assertTrue(write.isSuccess());
        assertEquals("a", ch.readOutbound());
        assertEquals("bc", ch.readOutbound());
        assertFalse(ch.finish());
    }

    @Test
    void anEncoderThatProducesNothingFailsTheWrite() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageEncoder<String>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, List<Object> out) {
            }
        });
        assertThrows(EncoderException.class, () -> ch.writeOutbound("lost"));
        assertFalse(ch.finish());
    }

    @Test
    void aMessageToByteEncoderWritesDirectBuffersAndPassesOthersOn() {
        EmbeddedChannel ch = new EmbeddedChannel(new IntEncoder());
        ch.writeOutbound(0x01020304, "other");
        ByteBuf buf = ch.readOutbound();
        assertTrue(buf.isDirect());
        assertEquals(0x01020304, buf.readInt());
        buf.release();
        assertEquals("other", ch.readOutbound());
        assertFalse(ch.finish());
    }

    @Test
    void aFailingByteEncoderReleasesItsBufferAndTheMessage() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToByteEncoder<ByteBuf>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, ByteBuf msg, ByteBuf out) {
                out.writeByte(1);
                throw new IllegalStateException("broken");
            }
        });
        ByteBuf msg = ch.alloc().buffer().writeByte(9);
        EncoderException e = assertThrows(EncoderException.class, () -> ch.writeOutbound(msg));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals(0, msg.refCnt());
        assertFalse(ch.finish());
    }

    static final class IntCodec extends ByteToMessageCodec<Integer> {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() >= 4) {
                out.add(in.readInt());
            }
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, Integer msg, ByteBuf out) {
            out.writeInt(msg);
        }
    }

    @Test
    void aByteToMessageCodecRoundTrips() {
        EmbeddedChannel ch = new EmbeddedChannel(new IntCodec());
        assertTrue(ch.writeOutbound(42));
        ByteBuf wire = ch.readOutbound();
        ch.writeInbound(wire.readRetainedSlice(1));
        assertNull(ch.readInbound());
        ch.writeInbound(wire);
        assertEquals(42, (int) ch.readInbound());
        assertFalse(ch.finish());
    }

    static final class StringIntCodec extends MessageToMessageCodec<String, Integer> {
        @Override
        protected void decode(ChannelHandlerContext ctx, String msg, List<Object> out) {
            out.add(Integer.parseInt(msg));
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, Integer msg, List<Object> out) {
            out.add(String.valueOf(msg));
        }
    }

    @Test
    void aMessageToMessageCodecConvertsBothWays() {
        EmbeddedChannel ch = new EmbeddedChannel(new StringIntCodec());
        ch.writeInbound("12");
        assertEquals(12, (int) ch.readInbound());
        ch.writeOutbound(34);
        assertEquals("34", ch.readOutbound());
        assertFalse(ch.finish());
    }

    @Test
    void theOutputListIsPooledPerThreadAndRejectsNull() {
        CodecOutputList list = CodecOutputList.newInstance();
        list.add("a");
        list.add(0, "b");
        list.add("c");
        assertEquals(List.of("b", "a", "c"), list);
        assertEquals("a", list.remove(1));
        assertThrows(NullPointerException.class, () -> list.add(null));
        assertTrue(list.insertSinceRecycled());
        list.recycle();
        CodecOutputList again = CodecOutputList.newInstance();
        assertSame(list, again);
        assertTrue(again.isEmpty());
        assertFalse(again.insertSinceRecycled());
        again.recycle();
        assertThrows(IllegalStateException.class, again::recycle);
    }

    @Test
    void decoderResultsSayWhatHappened() {
        assertTrue(DecoderResult.SUCCESS.isSuccess());
        assertFalse(DecoderResult.UNFINISHED.isFinished());
        RuntimeException cause = new RuntimeException("bad");
        DecoderResult failed = DecoderResult.failure(cause);
        assertTrue(failed.isFailure());
        assertSame(cause, failed.cause());
        assertNull(DecoderResult.SUCCESS.cause());
    }
}
