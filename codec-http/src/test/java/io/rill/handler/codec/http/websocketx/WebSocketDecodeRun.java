package io.rill.handler.codec.http.websocketx;

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

/**
 * Feeds the same bytes to fresh {@link WebSocketFrameDecoder}s whole, byte by byte and split at
 * every index, and asserts that every run has the same outcome. A frame renders as
 * {@code TEXT fin rsv <payload hex>}; a failure as {@code FAIL <status>} followed by
 * {@code SENT <status>}, the close frame the decoder wrote, and {@code CLOSED} once the channel is
 * closed. Also builds client frames, masked with a fixed key.
 */
final class WebSocketDecodeRun {

    static final int KEY = 0x37FA213D;

    private WebSocketDecodeRun() {
    }

    /** Concatenates byte arrays. */
    static byte[] bytes(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** Bytes from hex digits, spaces ignored. */
    static byte[] hex(String hex) {
        return ByteBufUtil.decodeHexDump(hex.replace(" ", ""));
    }

    /** A frame with first byte {@code b0}, masked with {@link #KEY} when {@code mask}, minimal length. */
    static byte[] frame(int b0, byte[] payload, boolean mask) {
        ByteBuf buf = Unpooled.buffer();
        buf.writeByte(b0);
        int m = mask ? 0x80 : 0;
        if (payload.length <= 125) {
            buf.writeByte(m | payload.length);
        } else if (payload.length <= 0xFFFF) {
            buf.writeByte(m | 126).writeShort(payload.length);
        } else {
            buf.writeByte(m | 127).writeLong(payload.length);
        }
        if (mask) {
            buf.writeInt(KEY);
        }
        for (int i = 0; i < payload.length; i++) {
            buf.writeByte(mask ? payload[i] ^ WebSocketMasking.maskByte(KEY, i) : payload[i]);
        }
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        buf.release();
        return out;
    }

    /** A masked client frame. */
    static byte[] client(int b0, byte[] payload) {
        return frame(b0, payload, true);
    }

    /** A masked client frame carrying {@code text} in UTF-8. */
    static byte[] client(int b0, String text) {
        return frame(b0, text.getBytes(StandardCharsets.UTF_8), true);
    }

    /** Runs {@code input} every way through a decoder with {@code config}; returns the outcome. */
    static List<String> everyWay(WebSocketDecoderConfig config, byte[] input) {
        List<String> expected = run(config, input, List.of(input.length));
        assertEquals(expected, run(config, input, ones(input.length)), "byte by byte");
        if (input.length <= 600) {
            for (int i = 1; i < input.length; i++) {
                assertEquals(expected, run(config, input, List.of(i, input.length - i)), "split at " + i);
            }
        }
        return expected;
    }

    private static List<Integer> ones(int n) {
        List<Integer> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(1);
        }
        return list;
    }

    /** Feeds {@code input} in pieces of the given sizes; stops feeding once the channel closed. */
    static List<String> run(WebSocketDecoderConfig config, byte[] input, List<Integer> pieces) {
        List<String> outcome = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameDecoder(config), new Recorder(outcome));
        int at = 0;
        for (int n : pieces) {
            if (!ch.isOpen()) {
                break;
            }
            ch.writeInbound(Unpooled.copiedBuffer(input, at, n));
            at += n;
        }
        for (Object msg; (msg = ch.readOutbound()) != null; ) {
            ByteBuf sent = (ByteBuf) msg;
            int start = sent.readerIndex();
            int status = config.expectMaskedFrames() ? sent.getUnsignedShort(start + 2)
                    : sent.getUnsignedShort(start + 6) ^ sent.getUnsignedShort(start + 2); // a client masks its close
            outcome.add("SENT " + status);
            sent.release();
        }
        if (!ch.isOpen()) {
            outcome.add("CLOSED");
        }
        ch.finishAndReleaseAll();
        return outcome;
    }

    /** Renders frames and decoder failures; releases what it reads. */
    static final class Recorder implements ChannelHandler {
        private final List<String> outcome;

        Recorder(List<String> outcome) {
            this.outcome = outcome;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            WebSocketFrame frame = (WebSocketFrame) msg;
            String kind = frame.getClass().getSimpleName().replace("WebSocketFrame", "").toUpperCase();
            outcome.add(kind + " " + (frame.isFinalFragment() ? 1 : 0) + " " + frame.rsv() + " "
                    + ByteBufUtil.hexDump(frame.content()));
            frame.release();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            outcome.add("FAIL " + ((CorruptedWebSocketFrameException) cause).closeStatus());
        }
    }
}
