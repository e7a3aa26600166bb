package io.rill.handler.codec.http.websocketx.extensions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrameDecoder;

/**
 * Feeds server frames (unmasked, as a client receives them) to a frame decoder with RSV1 allowed
 * followed by a permessage-deflate decoder, whole, byte by byte and split at every index, and
 * asserts every run has the same outcome. A frame renders as {@code TEXT fin rsv <text>} (BINARY
 * with a hex payload); a failure as {@code FAIL <status>}, then {@code SENT <status>} for the
 * close frame written and {@code CLOSED}.
 */
final class DeflateRun {

    private DeflateRun() {
    }

    static byte[] hex(String hex) {
        return ByteBufUtil.decodeHexDump(hex.replace(" ", ""));
    }

    static byte[] bytes(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** An unmasked frame with first byte {@code b0} and a minimal length. */
    static byte[] frame(int b0, byte[] payload) {
        ByteBuf buf = Unpooled.buffer();
        buf.writeByte(b0);
        if (payload.length <= 125) {
            buf.writeByte(payload.length);
        } else if (payload.length <= 0xFFFF) {
            buf.writeByte(126).writeShort(payload.length);
        } else {
            buf.writeByte(127).writeLong(payload.length);
        }
        buf.writeBytes(payload);
        byte[] out = ByteBufUtil.getBytes(buf);
        buf.release();
        return out;
    }

    static List<String> everyWay(int maxInflated, boolean noContextTakeover, byte[] input) {
        List<String> expected = run(maxInflated, noContextTakeover, input, List.of(input.length));
        List<Integer> ones = new ArrayList<>();
        for (int i = 0; i < input.length; i++) {
            ones.add(1);
        }
        assertEquals(expected, run(maxInflated, noContextTakeover, input, ones), "byte by byte");
        if (input.length <= 600) {
            for (int i = 1; i < input.length; i++) {
                assertEquals(expected, run(maxInflated, noContextTakeover, input, List.of(i, input.length - i)),
                        "split at " + i);
            }
        }
        return expected;
    }

    static List<String> run(int maxInflated, boolean noContextTakeover, byte[] input, List<Integer> pieces) {
        List<String> outcome = new ArrayList<>();
        WebSocketDecoderConfig config = new WebSocketDecoderConfig(1 << 20, 1 << 20, false, WebSocketFrame.RSV1);
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameDecoder(config),
                new PerMessageDeflateDecoder(new MessageInflater(maxInflated, noContextTakeover)), new Recorder(outcome));
        int at = 0;
        for (int n : pieces) {
            if (!ch.isOpen()) {
                break;
            }
            ch.writeInbound(Unpooled.copiedBuffer(input, at, n));
            at += n;
        }
        for (Object msg; (msg = ch.readOutbound()) != null; ) {
            if (msg instanceof CloseWebSocketFrame close) {
                outcome.add("SENT " + close.statusCode());
                close.release();
            } else {
                ByteBuf sent = (ByteBuf) msg; // the frame decoder's own close, already encoded (masked: a client)
                outcome.add("SENT " + (sent.getUnsignedShort(sent.readerIndex() + 6)
                        ^ sent.getUnsignedShort(sent.readerIndex() + 2)));
                sent.release();
            }
        }
        if (!ch.isOpen()) {
            outcome.add("CLOSED");
        }
        ch.finishAndReleaseAll();
        return outcome;
    }

    /** Renders frames and failures; releases what it reads. */
    static final class Recorder implements ChannelHandler {
        private final List<String> outcome;

        Recorder(List<String> outcome) {
            this.outcome = outcome;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            WebSocketFrame frame = (WebSocketFrame) msg;
            String kind = frame.getClass().getSimpleName().replace("WebSocketFrame", "").toUpperCase();
            String payload = kind.equals("BINARY") ? ByteBufUtil.hexDump(frame.content())
                    : frame.content().toString(StandardCharsets.UTF_8);
            outcome.add(kind + " " + (frame.isFinalFragment() ? 1 : 0) + " " + frame.rsv() + " " + payload);
            frame.release();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            outcome.add("FAIL " + ((CorruptedWebSocketFrameException) cause).closeStatus());
        }
    }
}
