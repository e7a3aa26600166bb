package io.rill.handler.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.channel.socket.ChannelInputShutdownEvent;

/** {@link ByteToMessageDecoder#suspendDecoding}: bytes wait, reading stops, resume decodes what waited. */
class DecoderSuspensionTest {

    /** One message per byte (as a one-letter string); suspends after the byte {@code '|'}. */
    static final class Letters extends ByteToMessageDecoder {
        private ChannelHandlerContext ctx;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            char c = (char) in.readByte();
            out.add(String.valueOf(c));
            if (c == '|') {
                suspendDecoding(ctx);
            }
        }

        void resume() throws Exception {
            resumeDecoding(ctx);
        }

        boolean suspended() {
            return isDecodingSuspended();
        }
    }

    /** Before the decoder: counts the read() requests that get past it. */
    static final class ReadCounter implements ChannelHandler {
        int reads;

        @Override
        public void read(ChannelHandlerContext ctx) {
            reads++;
            ctx.read();
        }
    }

    /** After the decoder: records what it passes on, events included; asks for a read after each burst. */
    static final class Recorder implements ChannelHandler {
        final List<String> seen = new ArrayList<>();
        boolean askForReads;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            seen.add(msg instanceof ByteBuf b ? b.toString(StandardCharsets.US_ASCII) : String.valueOf(msg));
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            seen.add("/");
            if (askForReads) {
                ctx.read();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            seen.add(evt == ChannelInputShutdownEvent.INSTANCE ? "shutdown" : String.valueOf(evt));
        }
    }

    private static ByteBuf ascii(EmbeddedChannel ch, String s) {
        return ch.alloc().buffer().writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void bytesWaitAndReadingStopsUntilResumeDecodesThemAndReadsAgain() throws Exception {
        Letters decoder = new Letters();
        Recorder next = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, next);
        ch.writeInbound(ascii(ch, "ab|cd"));
        assertEquals(List.of("a", "b", "|", "/"), next.seen);
        assertTrue(decoder.suspended());
        assertFalse(ch.config().isAutoRead());

        ch.writeInbound(ascii(ch, "ef"));
        assertEquals(List.of("a", "b", "|", "/", "/"), next.seen, "nothing decoded while suspended");

        decoder.resume();
        assertEquals(List.of("a", "b", "|", "/", "/", "c", "d", "e", "f", "/"), next.seen,
                "what waited, then a read-complete so handlers that flush there flush");
        assertTrue(ch.config().isAutoRead());
        assertFalse(ch.finish());
    }

    @Test
    void readRequestsFromAfterTheDecoderAreHeldWhileSuspendedAndAskedForOnResume() throws Exception {
        ReadCounter reads = new ReadCounter();
        Letters decoder = new Letters();
        Recorder next = new Recorder();
        next.askForReads = true;
        EmbeddedChannel ch = new EmbeddedChannel(reads, decoder, next);
        ch.config().setAutoRead(false); // the application asks for each read itself
        int before = reads.reads;
        ch.writeInbound(ascii(ch, "|"));
        ch.writeInbound(ascii(ch, "x"));
        assertEquals(before, reads.reads, "no read while suspended, or bytes would pile up here for ever");

        decoder.resume();
        assertEquals(List.of("|", "/", "/", "x", "/"), next.seen);
        assertEquals(before + 1, reads.reads, "the application's request, once, after what waited");
        assertFalse(ch.finish());
    }

    @Test
    void anInputShutdownWhileSuspendedComesAfterTheBytesBeforeIt() throws Exception {
        Letters decoder = new Letters();
        Recorder next = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, next);
        ch.writeInbound(ascii(ch, "|z"));
        ch.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        assertEquals(List.of("|", "/"), next.seen);

        decoder.resume();
        assertEquals(List.of("|", "/", "z", "/", "shutdown"), next.seen);
        assertFalse(ch.finish());
    }

    @Test
    void aSuspendedDecoderThatLeavesPassesItsBytesOnAndReadingResumes() {
        Letters decoder = new Letters();
        Recorder next = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, next);
        ch.writeInbound(ascii(ch, "|rest"));
        ch.pipeline().remove(decoder);
        assertEquals(List.of("|", "/", "rest", "/"), next.seen);
        assertTrue(ch.config().isAutoRead());
        assertFalse(ch.finish());
    }

    @Test
    void aChannelThatClosesWhileSuspendedDropsWhatWaitedWithoutLeaking() {
        Letters decoder = new Letters();
        Recorder next = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, next);
        ch.writeInbound(ascii(ch, "|never decoded"));
        assertFalse(ch.finish()); // PARANOID leak detection fails the test if the waiting bytes leaked
        assertEquals(List.of("|", "/"), next.seen);
    }
}
