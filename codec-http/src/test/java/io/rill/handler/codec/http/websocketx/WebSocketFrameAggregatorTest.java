package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/** Joining fragments, with a cap. */
class WebSocketFrameAggregatorTest {

    private static ByteBuf utf8(String s) {
        return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void joinsATextMessageAndLetsControlFramesThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameAggregator(100));
        ch.writeInbound(new TextWebSocketFrame(false, 0, utf8("Hel")));
        ch.writeInbound(new PingWebSocketFrame(utf8("p")));
        ch.writeInbound(new ContinuationWebSocketFrame(false, 0, utf8("lo, ")));
        ch.writeInbound(new ContinuationWebSocketFrame(true, 0, utf8("world")));
        PingWebSocketFrame ping = ch.readInbound();
        ping.release();
        TextWebSocketFrame text = ch.readInbound();
        assertEquals("Hello, world", text.text());
        assertTrue(text.isFinalFragment());
        text.release();
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void passesWholeFramesThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameAggregator(4));
        ch.writeInbound(new BinaryWebSocketFrame(utf8("ab")));
        BinaryWebSocketFrame frame = ch.readInbound();
        assertEquals("6162", ByteBufUtil.hexDump(frame.content()));
        frame.release();
        ch.finishAndReleaseAll();
    }

    @Test
    void closesWith1009WhenAMessageExceedsTheCap() {
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameAggregator(8));
        ch.writeInbound(new BinaryWebSocketFrame(false, 0, utf8("12345")));
        ch.writeInbound(new ContinuationWebSocketFrame(false, 0, utf8("6789")));
        assertNull(ch.readInbound());
        CloseWebSocketFrame close = ch.readOutbound();
        assertEquals(CloseWebSocketFrame.MESSAGE_TOO_BIG, close.statusCode());
        close.release();
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }
}
