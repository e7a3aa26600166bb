package io.rill.handler.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;

/** MessageToMessageDecoder.channelRead and channelReadComplete, as the class documents them. */
class MessageToMessageDecoderTest {

    /** Records what reaches the end of the inbound direction, messages and exceptions alike, in order. */
    static final class Recorder implements ChannelHandler {
        final List<Object> events = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            events.add(msg instanceof ByteBuf buf ? "buf:" + buf.readableBytes() : msg);
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            events.add(cause);
        }
    }

    /** Counts read() requests on their way to the head. */
    static final class ReadCounter implements ChannelHandler {
        int reads;

        @Override
        public void read(ChannelHandlerContext ctx) {
            reads++;
            ctx.read();
        }
    }

    /** Emits one message per readable byte, then throws if told to. */
    static final class BytesToChars extends MessageToMessageDecoder<ByteBuf> {
        Exception failWith;

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) throws Exception {
            while (msg.isReadable()) {
                out.add((char) msg.readByte());
            }
            if (failWith != null) {
                throw failWith;
            }
        }
    }

    private static ByteBuf ascii(String s) {
        return Unpooled.buffer(s.length()).writeBytes(s.getBytes(US_ASCII));
    }

    @Test
    void everyOutputGoesOnInOrderAndTheInputIsReleasedOnceDecoded() {
        Recorder downstream = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(new BytesToChars(), downstream);
        ByteBuf in = ascii("abc");
        ch.writeInbound(in);
        assertEquals(List.of('a', 'b', 'c'), downstream.events);
        assertEquals(0, in.refCnt());
        assertFalse(ch.finish());
    }

    @Test
    void aFailingDecodeStillReleasesItsInputAndPassesOnWhatItProducedBeforeTheFailure() {
        Recorder downstream = new Recorder();
        BytesToChars decoder = new BytesToChars();
        decoder.failWith = new IOException("bad input");
        EmbeddedChannel ch = new EmbeddedChannel(decoder, downstream);
        ByteBuf in = ascii("xy");
        ch.writeInbound(in);
        assertEquals(0, in.refCnt());
        assertEquals(3, downstream.events.size(), downstream.events.toString());
        assertEquals(List.of('x', 'y'), downstream.events.subList(0, 2));
        DecoderException e = (DecoderException) downstream.events.get(2);
        assertSame(decoder.failWith, e.getCause());
        assertFalse(ch.finish());
    }

    @Test
    void aDecoderExceptionFromDecodeArrivesAsItIsNotWrappedAgain() {
        Recorder downstream = new Recorder();
        BytesToChars decoder = new BytesToChars();
        decoder.failWith = new DecoderException("already the right type");
        EmbeddedChannel ch = new EmbeddedChannel(decoder, downstream);
        ch.writeInbound(ascii("z"));
        assertEquals(List.of('z', decoder.failWith), downstream.events);
        assertFalse(ch.finish());
    }

    @Test
    void anErrorFromDecodeLeavesAsItIsAfterTheInputIsReleasedAndTheOutputPassedOn() {
        Recorder downstream = new Recorder();
        AssertionError bug = new AssertionError("a bug in decode");
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageDecoder<ByteBuf>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
                out.add(msg.readRetainedSlice(1));
                throw bug;
            }
        }, downstream);
        ByteBuf in = ascii("ab");
        ch.writeInbound(in);
        assertEquals(List.of("buf:1", bug), downstream.events);
        assertEquals(0, in.refCnt(), "the slice went downstream and was released there, the input here");
        assertFalse(ch.finish());
    }

    @Test
    void aMessageOfAnotherTypeGoesOnUntouchedAndUnreleased() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageDecoder<String>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, String msg, List<Object> out) {
                out.add(msg.length());
            }
        });
        ByteBuf other = ascii("not a string");
        ch.writeInbound(other, "four");
        assertSame(other, ch.readInbound());
        assertEquals(1, other.refCnt());
        assertEquals(4, (int) ch.readInbound());
        other.release();
        assertFalse(ch.finish());
    }

    @Test
    void aDecoderThatRetainsItsInputHandsOnALiveBuffer() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageDecoder<ByteBuf>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
                out.add(msg.readRetainedSlice(2));
            }
        });
        ByteBuf in = ascii("hello");
        ch.writeInbound(in);
        ByteBuf head = ch.readInbound();
        assertEquals("he", head.toString(US_ASCII));
        assertEquals(1, in.refCnt(), "the slice's reference keeps the memory after the decoder's release");
        head.release();
        assertEquals(0, in.refCnt());
        assertFalse(ch.finish());
    }

    @Test
    void withAutoReadOffABurstThatProducedNothingAsksForMoreAndOneThatProducedDoesNot() {
        ReadCounter reads = new ReadCounter();
        EmbeddedChannel ch = new EmbeddedChannel(reads, new MessageToMessageDecoder<String>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, String msg, List<Object> out) {
                if (!msg.isEmpty()) {
                    out.add(msg);
                }
            }
        });
        ch.config().setAutoRead(false);
        int before = reads.reads;
        ch.writeInbound("");
        assertEquals(before + 1, reads.reads, "everything was swallowed: nobody downstream will ask for more");
        ch.writeInbound("kept");
        assertEquals(before + 1, reads.reads, "downstream got a message: asking is its business");
        assertEquals("kept", ch.readInbound());
        assertFalse(ch.finish());
    }
}
