package io.rill.handler.codec.memcache.text;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;

/**
 * A server's encoder: each {@link TextMemcacheResponse} as its reply line, a {@code VALUE}'s data
 * as it is (not copied) and its {@code \r\n}. Stateless: share {@link #INSTANCE}.
 */
@ChannelHandler.Sharable
public final class TextMemcacheResponseEncoder extends MessageToMessageEncoder<TextMemcacheResponse> {

    /** The shared instance. */
    public static final TextMemcacheResponseEncoder INSTANCE = new TextMemcacheResponseEncoder();

    private TextMemcacheResponseEncoder() {
        super(TextMemcacheResponse.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, TextMemcacheResponse msg, List<Object> out) {
        TextMemcacheResponse.Type type = msg.type();
        String key = msg.key();
        String message = msg.message();
        ByteBuf line = ctx.alloc().ioBuffer(24 + 3 * 21 + (key == null ? 0 : 3 * key.length())
                + (message == null ? 0 : message.length()));
        switch (type) {
            case VALUE -> {
                line.writeBytes(type.wireName).writeByte(' ');
                TextWire.writeKey(line, key);
                line.writeByte(' ');
                TextWire.writeUnsigned(line, msg.flags());
                line.writeByte(' ');
                TextWire.writeUnsigned(line, msg.content().readableBytes());
                if (msg.hasCasUnique()) {
                    line.writeByte(' ');
                    TextWire.writeUnsigned(line, msg.casUnique());
                }
            }
            case NUMBER -> TextWire.writeUnsigned(line, msg.number());
            default -> {
                line.writeBytes(type.wireName);
                if (message != null && !message.isEmpty()) {
                    line.writeByte(' ');
                    io.rill.buffer.ByteBufUtil.writeAscii(line, message);
                }
            }
        }
        line.writeShort(TextWire.CRLF_SHORT);
        out.add(line);
        if (type == TextMemcacheResponse.Type.VALUE) {
            TextWire.addData(msg.content(), out);
        }
    }
}
