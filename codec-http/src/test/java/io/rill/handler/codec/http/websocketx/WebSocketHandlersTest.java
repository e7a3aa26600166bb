package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;

/** The handlers a WebSocket runs on after a handshake made by any transport. */
class WebSocketHandlersTest {

    @Test
    void decoderComesFirstThenEncoderThenTheControlHandlerLast() {
        List<ChannelHandler> handlers = WebSocketHandlers.afterHandshake(WebSocketDecoderConfig.server(), List.of(),
                Duration.ofSeconds(1));
        assertEquals(3, handlers.size());
        WebSocketFrameDecoder decoder = assertInstanceOf(WebSocketFrameDecoder.class, handlers.get(0));
        assertEquals(WebSocketDecoderConfig.server(), decoder.config());
        assertInstanceOf(WebSocketFrameEncoder.class, handlers.get(1));
    }

    @Test
    void aServersHandlersSendUnmaskedFramesAndAClientsMaskedOnes() {
        assertEquals(0, maskBitOfATextFrame(WebSocketDecoderConfig.server()));
        assertEquals(0x80, maskBitOfATextFrame(WebSocketDecoderConfig.client()));
    }

    private static int maskBitOfATextFrame(WebSocketDecoderConfig config) {
        EmbeddedChannel ch = new EmbeddedChannel(WebSocketHandlers.afterHandshake(config, List.of(),
                Duration.ofSeconds(1)).toArray(ChannelHandler[]::new));
        try {
            ch.writeOutbound(new TextWebSocketFrame("hi"));
            ByteBuf header = ch.readOutbound();
            try {
                return header.getUnsignedByte(header.readerIndex() + 1) & 0x80;
            } finally {
                header.release();
            }
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aPingThroughTheHandlersIsAnsweredWithAPong() {
        EmbeddedChannel ch = new EmbeddedChannel(WebSocketHandlers.afterHandshake(WebSocketDecoderConfig.client(),
                List.of(), Duration.ofSeconds(1)).toArray(ChannelHandler[]::new));
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0x89, 0x01, 'x'})); // ping "x", unmasked
            StringBuilder written = new StringBuilder();
            for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
                written.append(ByteBufUtil.hexDump(b));
                b.release();
            }
            assertEquals("8a", written.substring(0, 2), "a pong goes out: " + written);
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
