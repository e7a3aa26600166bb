package io.rill.handler.codec.stomp;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.EncoderException;
import io.rill.handler.codec.MessageToByteEncoder;

/**
 * Writes {@link StompFrame}s (command, headers escaped as 1.2 says, a {@code content-length}
 * when the body is not empty and none was given, the body, NUL) and {@link StompHeartbeat}s (an
 * LF). CONNECT and CONNECTED frames escape nothing, so a header of theirs holding CR, LF or a colon
 * in its name cannot be written and fails with {@link EncoderException} rather than forge a header.
 * Stateless: share {@link #INSTANCE}.
 */
@ChannelHandler.Sharable
public final class StompFrameEncoder extends MessageToByteEncoder<Object> {

    /** The shared instance. */
    public static final StompFrameEncoder INSTANCE = new StompFrameEncoder();

    private StompFrameEncoder() {
        super(Object.class, false);
    }

    @Override
    public boolean acceptOutboundMessage(Object msg) {
        return msg instanceof StompFrame || msg instanceof StompHeartbeat;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Object msg, ByteBuf out) {
        if (msg instanceof StompHeartbeat) {
            out.writeByte('\n');
            return;
        }
        StompFrame frame = (StompFrame) msg;
        ByteBuf body = frame.content();
        out.writeCharSequence(frame.command().name(), StandardCharsets.US_ASCII);
        out.writeByte('\n');
        boolean escape = frame.command().escapesHeaders();
        boolean hasLength = false;
        for (Map.Entry<String, String> h : frame.headers()) {
            hasLength |= h.getKey().equals("content-length");
            if (escape) {
                writeEscaped(out, h.getKey());
                out.writeByte(':');
                writeEscaped(out, h.getValue());
            } else {
                checkUnescaped(frame.command(), h.getKey(), true);
                checkUnescaped(frame.command(), h.getValue(), false);
                ByteBufUtil.writeUtf8(out, h.getKey());
                out.writeByte(':');
                ByteBufUtil.writeUtf8(out, h.getValue());
            }
            out.writeByte('\n');
        }
        if (!hasLength && body.isReadable()) {
            out.writeCharSequence("content-length:" + body.readableBytes(), StandardCharsets.US_ASCII);
            out.writeByte('\n');
        }
        out.writeByte('\n');
        out.writeBytes(body, body.readerIndex(), body.readableBytes());
        out.writeByte(0);
    }

    private static void writeEscaped(ByteBuf out, String s) {
        int plain = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String escape = switch (c) {
                case '\r' -> "\\r";
                case '\n' -> "\\n";
                case ':' -> "\\c";
                case '\\' -> "\\\\";
                default -> null;
            };
            if (escape != null) {
                ByteBufUtil.writeUtf8(out, s.subSequence(plain, i));
                out.writeCharSequence(escape, StandardCharsets.US_ASCII);
                plain = i + 1;
            }
        }
        ByteBufUtil.writeUtf8(out, plain == 0 ? s : s.subSequence(plain, s.length()));
    }

    private static void checkUnescaped(StompCommand command, String s, boolean name) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n' || (name && c == ':')) {
                throw new EncoderException("a " + command + " frame escapes nothing, so its header " + (name ? "name" : "value")
                        + " cannot hold " + (c == ':' ? "a colon" : "CR or LF") + ": " + s.replace("\r", "\\r").replace("\n", "\\n"));
            }
        }
    }
}
