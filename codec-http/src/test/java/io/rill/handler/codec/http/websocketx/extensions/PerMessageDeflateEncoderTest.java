package io.rill.handler.codec.http.websocketx.extensions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.rill.handler.codec.http.websocketx.PingWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;

/** The compressing side: RFC 7692 §7.2.3's bytes, RSV1 placement, and round trips through the decoder. */
class PerMessageDeflateEncoderTest {

    @Test
    void compressesHelloToTheRfcBytes() {
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateEncoder(new MessageDeflater(6, 15, false)));
        assertEquals("1 4 f248cdc9c90700", written(ch, new TextWebSocketFrame("Hello")));
        assertEquals("1 4 f200110000", written(ch, new TextWebSocketFrame("Hello")), "§7.2.3.2: context taken over");
        ch.finishAndReleaseAll();
    }

    @Test
    void withoutContextTakeoverEveryHelloIsTheSame() {
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateEncoder(new MessageDeflater(6, 15, true)));
        assertEquals("1 4 f248cdc9c90700", written(ch, new TextWebSocketFrame("Hello")));
        assertEquals("1 4 f248cdc9c90700", written(ch, new TextWebSocketFrame("Hello")));
        ch.finishAndReleaseAll();
    }

    @Test
    void anEmptyMessageIsOneZeroByte() {
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateEncoder(new MessageDeflater(6, 15, false)));
        assertEquals("1 4 00", written(ch, new BinaryWebSocketFrame(Unpooled.EMPTY_BUFFER)));
        ch.finishAndReleaseAll();
    }

    @Test
    void setsRsv1OnTheFirstFrameOnlyAndLeavesControlFramesAlone() {
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateEncoder(new MessageDeflater(6, 15, false)));
        ch.writeOutbound(new TextWebSocketFrame(false, 0, Unpooled.copiedBuffer("Hel", StandardCharsets.UTF_8)),
                new PingWebSocketFrame(Unpooled.copiedBuffer("p", StandardCharsets.UTF_8)),
                new ContinuationWebSocketFrame(true, 0, Unpooled.copiedBuffer("lo", StandardCharsets.UTF_8)));
        WebSocketFrame first = ch.readOutbound();
        WebSocketFrame ping = ch.readOutbound();
        WebSocketFrame last = ch.readOutbound();
        assertEquals(WebSocketFrame.RSV1, first.rsv());
        assertEquals(0, ping.rsv());
        assertEquals("p", ping.content().toString(StandardCharsets.UTF_8));
        assertEquals(0, last.rsv());
        assertTrue(last instanceof ContinuationWebSocketFrame);
        first.release();
        ping.release();
        last.release();
        ch.finishAndReleaseAll();
    }

    @Test
    void roundTripsMessagesOfManySizesForEveryWindow() {
        Random random = new Random(7);
        for (int bits = 8; bits <= 15; bits++) {
            for (boolean noContext : new boolean[] {false, true}) {
                EmbeddedChannel enc = new EmbeddedChannel(new PerMessageDeflateEncoder(new MessageDeflater(6, bits, noContext)));
                EmbeddedChannel dec = new EmbeddedChannel(new PerMessageDeflateDecoder(new MessageInflater(1 << 20, noContext)));
                for (int size : new int[] {0, 1, 255, 256, 257, 4096, 40_000, 200_000}) {
                    byte[] data = sample(random, size);
                    enc.writeOutbound(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(data)));
                    WebSocketFrame compressed = enc.readOutbound();
                    dec.writeInbound(compressed);
                    WebSocketFrame plain = dec.readInbound();
                    assertArrayEquals(data, ByteBufUtil.getBytes(plain.content()), "window " + bits + ", size " + size);
                    plain.release();
                }
                enc.finishAndReleaseAll();
                dec.finishAndReleaseAll();
            }
        }
    }

    @Test
    void roundTripsAFragmentedMessage() {
        EmbeddedChannel enc = new EmbeddedChannel(new PerMessageDeflateEncoder(new MessageDeflater(6, 10, false)));
        EmbeddedChannel dec = new EmbeddedChannel(new PerMessageDeflateDecoder(new MessageInflater(1 << 20, false)));
        byte[] data = sample(new Random(3), 10_000);
        enc.writeOutbound(new TextWebSocketFrame(false, 0, Unpooled.wrappedBuffer(data, 0, 3000)),
                new ContinuationWebSocketFrame(false, 0, Unpooled.wrappedBuffer(data, 3000, 0)),
                new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(data, 3000, 7000)));
        ByteBuf joined = Unpooled.buffer();
        for (WebSocketFrame f; (f = enc.readOutbound()) != null; ) {
            dec.writeInbound(f);
            WebSocketFrame plain = dec.readInbound();
            joined.writeBytes(plain.content());
            plain.release();
        }
        assertArrayEquals(data, ByteBufUtil.getBytes(joined));
        joined.release();
        enc.finishAndReleaseAll();
        dec.finishAndReleaseAll();
    }

    /** ASCII with repeats near and far, so back-references of every distance are tempting. */
    static byte[] sample(Random random, int size) {
        byte[] block = new byte[300];
        for (int i = 0; i < block.length; i++) {
            block[i] = (byte) ('a' + random.nextInt(26));
        }
        byte[] out = new byte[size];
        for (int i = 0; i < size; i++) {
            out[i] = random.nextInt(8) == 0 ? (byte) ('A' + random.nextInt(26)) : block[i % block.length];
        }
        return out;
    }

    private static String written(EmbeddedChannel ch, WebSocketFrame frame) {
        ch.writeOutbound(frame);
        WebSocketFrame out = ch.readOutbound();
        List<String> parts = new ArrayList<>(List.of((out.isFinalFragment() ? "1" : "0"), Integer.toString(out.rsv()),
                ByteBufUtil.hexDump(out.content())));
        out.release();
        return String.join(" ", parts);
    }
}
