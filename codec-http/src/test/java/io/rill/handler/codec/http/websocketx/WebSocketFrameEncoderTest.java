package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.EncoderException;

/** The encoder's wire format, checked by decoding what it writes. */
class WebSocketFrameEncoderTest {

    @Test
    void serverFramesAreUnmaskedWithMinimalLengths() {
        assertEquals("810248 69".replace(" ", ""), encode(false, new TextWebSocketFrame("Hi")));
        assertEquals("827e007e", encode(false, new BinaryWebSocketFrame(Unpooled.buffer(126).writeZero(126))).substring(0, 8));
        assertEquals("827f0000000000010000",
                encode(false, new BinaryWebSocketFrame(Unpooled.buffer(65536).writeZero(65536))).substring(0, 20));
        assertEquals("880203e8", encode(false, new CloseWebSocketFrame(1000, "")));
    }

    @Test
    void everySizeRoundTripsMaskedAndUnmasked() {
        Random random = new Random(6455);
        for (int size : new int[] {0, 1, 3, 4, 5, 125, 126, 1023, 1024, 1025, 65535, 65536, 100_000}) {
            byte[] payload = new byte[size];
            random.nextBytes(payload);
            for (boolean mask : new boolean[] {true, false}) {
                EmbeddedChannel out = new EmbeddedChannel(new WebSocketFrameEncoder(mask));
                out.writeOutbound(new BinaryWebSocketFrame(false, WebSocketFrame.RSV1, Unpooled.wrappedBuffer(payload)));
                ByteBuf wire = Unpooled.buffer();
                for (ByteBuf b; (b = out.readOutbound()) != null; ) {
                    wire.writeBytes(b);
                    b.release();
                }
                out.finishAndReleaseAll();
                WebSocketDecoderConfig config = new WebSocketDecoderConfig(200_000, 200_000, mask, WebSocketFrame.RSV1);
                EmbeddedChannel in = new EmbeddedChannel(new WebSocketFrameDecoder(config));
                in.writeInbound(wire);
                BinaryWebSocketFrame frame = in.readInbound();
                assertEquals(ByteBufUtil.hexDump(payload), ByteBufUtil.hexDump(frame.content()), "size " + size);
                assertEquals(WebSocketFrame.RSV1, frame.rsv());
                assertEquals(false, frame.isFinalFragment());
                frame.release();
                in.finishAndReleaseAll();
            }
        }
    }

    @Test
    void refusesToEncodeAnOversizedControlFrame() {
        EmbeddedChannel out = new EmbeddedChannel(new WebSocketFrameEncoder(false));
        assertThrows(EncoderException.class,
                () -> out.writeOutbound(new PingWebSocketFrame(Unpooled.buffer(126).writeZero(126))));
        out.finishAndReleaseAll();
    }

    @Test
    void aPayloadOwnedAloneTakesItsHeaderInTheRoomBeforeIt() {
        for (int size : new int[] {2, 125, 126, 65535, 65536}) {
            ByteBuf content = Unpooled.buffer(10 + size).setIndex(10, 10).writeZero(size);
            EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameEncoder(false));
            ch.writeOutbound(new BinaryWebSocketFrame(content));
            ByteBuf wire = ch.readOutbound();
            assertSame(content, wire, "size " + size);
            String expected = size <= 125 ? "82" + String.format("%02x", size)
                    : size <= 0xFFFF ? "827e" + String.format("%04x", size) : "827f" + String.format("%016x", size);
            assertEquals(expected, ByteBufUtil.hexDump(wire, wire.readerIndex(), expected.length() / 2));
            assertEquals(expected.length() / 2 + size, wire.readableBytes());
            wire.release();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aSharedReadOnlyOrCrampedPayloadIsLeftAsItIs() {
        ByteBuf shared = Unpooled.buffer(12).setIndex(10, 10).writeBytes("Hi".getBytes(StandardCharsets.US_ASCII));
        ByteBuf readOnly = Unpooled.buffer(12).setIndex(10, 10).writeBytes("Hi".getBytes(StandardCharsets.US_ASCII)).asReadOnly();
        ByteBuf cramped = Unpooled.buffer(3).setIndex(1, 1).writeBytes("Hi".getBytes(StandardCharsets.US_ASCII));
        shared.retain(); // someone else still reads it
        for (ByteBuf content : new ByteBuf[] {shared, readOnly, cramped}) {
            EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameEncoder(false));
            ch.writeOutbound(new TextWebSocketFrame(content));
            StringBuilder hex = new StringBuilder();
            for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
                assertNotSame(content, b);
                hex.append(ByteBufUtil.hexDump(b));
                b.release();
            }
            assertEquals("81024869", hex.toString());
            ch.finishAndReleaseAll();
        }
        assertEquals("000000000000000000004869", ByteBufUtil.hexDump(shared, 0, 12));
        shared.release();
    }

    @Test
    void aServerEchoesAReceivedFrameWithoutAnotherBuffer() {
        // A client's masked "Hello", the example of RFC 6455 §5.7.
        ByteBuf masked = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump("818537fa213d7f9f4d5158"));
        EmbeddedChannel server = new EmbeddedChannel(new WebSocketFrameEncoder(false),
                new WebSocketFrameDecoder(new WebSocketDecoderConfig(1024, 1024, true, 0)));
        server.writeInbound(masked);
        TextWebSocketFrame received = server.readInbound();
        ByteBuf payload = received.content();
        server.writeOutbound(received);
        ByteBuf wire = server.readOutbound();
        assertSame(payload, wire);
        assertEquals("810548656c6c6f", ByteBufUtil.hexDump(wire));
        wire.release();
        server.finishAndReleaseAll();
    }

    @Test
    void aFrameThatFillsAReadBufferOwnedAloneBecomesItsPayloadUnmaskedInPlace() {
        ByteBuf read = Unpooled.directBuffer(64).writeBytes(ByteBufUtil.decodeHexDump("818537fa213d7f9f4d5158"));
        EmbeddedChannel server = new EmbeddedChannel(new WebSocketFrameEncoder(false),
                new WebSocketFrameDecoder(new WebSocketDecoderConfig(1024, 1024, true, 0)));
        server.writeInbound(read);
        TextWebSocketFrame received = server.readInbound();
        assertSame(read, received.content());
        assertEquals("Hello", received.text());
        server.writeOutbound(received);
        ByteBuf wire = server.readOutbound();
        assertSame(read, wire);
        assertEquals("810548656c6c6f", ByteBufUtil.hexDump(wire));
        wire.release();
        server.finishAndReleaseAll();
    }

    @Test
    void aReadBufferSomeoneElseStillSeesIsCopiedNotUnmaskedInPlace() {
        ByteBuf read = Unpooled.directBuffer(64).writeBytes(ByteBufUtil.decodeHexDump("818537fa213d7f9f4d5158"));
        ByteBuf forwarded = read.retainedDuplicate(); // a proxy passing the raw bytes on as well
        EmbeddedChannel server = new EmbeddedChannel(
                new WebSocketFrameDecoder(new WebSocketDecoderConfig(1024, 1024, true, 0)));
        server.writeInbound(read);
        TextWebSocketFrame received = server.readInbound();
        assertNotSame(read, received.content());
        assertEquals("Hello", received.text());
        received.release();
        assertEquals("818537fa213d7f9f4d5158", ByteBufUtil.hexDump(forwarded));
        forwarded.release();
        server.finishAndReleaseAll();
    }

    @Test
    void aFrameFollowedByMoreBytesOrInAMuchLargerBufferIsCopied() {
        String hello = "818537fa213d7f9f4d5158";
        ByteBuf two = Unpooled.directBuffer(64).writeBytes(ByteBufUtil.decodeHexDump(hello + hello));
        ByteBuf large = Unpooled.directBuffer(64 * 1024).writeBytes(ByteBufUtil.decodeHexDump(hello));
        EmbeddedChannel server = new EmbeddedChannel(
                new WebSocketFrameDecoder(new WebSocketDecoderConfig(1024, 1024, true, 0)));
        server.writeInbound(two);
        server.writeInbound(large);
        for (int i = 0; i < 3; i++) {
            TextWebSocketFrame received = server.readInbound();
            assertEquals("Hello", received.text());
            if (i == 0) {
                assertNotSame(two, received.content());
            } else if (i == 1) {
                assertSame(two, received.content()); // the second frame ends the bytes received
            } else {
                assertNotSame(large, received.content());
            }
            received.release();
        }
        server.finishAndReleaseAll();
    }

    private static String encode(boolean mask, WebSocketFrame frame) {
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameEncoder(mask));
        ch.writeOutbound(frame);
        StringBuilder hex = new StringBuilder();
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            hex.append(ByteBufUtil.hexDump(b));
            b.release();
        }
        ch.finishAndReleaseAll();
        return hex.toString();
    }
}
