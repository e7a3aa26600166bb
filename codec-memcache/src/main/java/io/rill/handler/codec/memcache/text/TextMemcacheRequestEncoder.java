package io.rill.handler.codec.memcache.text;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;

/**
 * A client's encoder: each {@link TextMemcacheRequest} as its command line in one small buffer, then
 * a storage command's data as it is (not copied) and its {@code \r\n}. Stateless: share
 * {@link #INSTANCE}.
 */
@ChannelHandler.Sharable
public final class TextMemcacheRequestEncoder extends MessageToMessageEncoder<TextMemcacheRequest> {

    /** The shared instance. */
    public static final TextMemcacheRequestEncoder INSTANCE = new TextMemcacheRequestEncoder();

    private static final byte[] NOREPLY = {' ', 'n', 'o', 'r', 'e', 'p', 'l', 'y'};

    private TextMemcacheRequestEncoder() {
        super(TextMemcacheRequest.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, TextMemcacheRequest msg, List<Object> out) {
        TextMemcacheCommand command = msg.command();
        int estimate = 16 + 3 * 21 + NOREPLY.length;
        for (String key : msg.keys()) {
            estimate += 1 + 3 * key.length();
        }
        ByteBuf line = ctx.alloc().ioBuffer(estimate);
        line.writeBytes(command.wireName);
        if (command == TextMemcacheCommand.GAT || command == TextMemcacheCommand.GATS) {
            line.writeByte(' ');
            TextWire.writeSigned(line, msg.exptime());
        }
        for (String key : msg.keys()) {
            line.writeByte(' ');
            TextWire.writeKey(line, key);
        }
        switch (command) {
            case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> {
                line.writeByte(' ');
                TextWire.writeUnsigned(line, msg.flags());
                line.writeByte(' ');
                TextWire.writeSigned(line, msg.exptime());
                line.writeByte(' ');
                TextWire.writeUnsigned(line, msg.content().readableBytes());
                if (command == TextMemcacheCommand.CAS) {
                    line.writeByte(' ');
                    TextWire.writeUnsigned(line, msg.casUnique());
                }
            }
            case INCR, DECR -> {
                line.writeByte(' ');
                TextWire.writeUnsigned(line, msg.delta());
            }
            case TOUCH -> {
                line.writeByte(' ');
                TextWire.writeSigned(line, msg.exptime());
            }
            default -> {
                // the keys were all
            }
        }
        if (msg.isNoreply()) {
            line.writeBytes(NOREPLY);
        }
        line.writeShort(TextWire.CRLF_SHORT);
        out.add(line);
        if (command.isStorage()) {
            TextWire.addData(msg.content(), out);
        }
    }
}
