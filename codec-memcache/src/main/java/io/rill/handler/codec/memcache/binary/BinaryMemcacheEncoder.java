package io.rill.handler.codec.memcache.binary;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;

/**
 * Writes {@link BinaryMemcacheMessage}s, requests and responses alike: the header, extras and key
 * in one small buffer, then the value as it is (not copied). Stateless: share {@link #INSTANCE}.
 */
@ChannelHandler.Sharable
public final class BinaryMemcacheEncoder extends MessageToMessageEncoder<BinaryMemcacheMessage> {

    /** The shared instance. */
    public static final BinaryMemcacheEncoder INSTANCE = new BinaryMemcacheEncoder();

    static final int HEADER_LENGTH = 24;

    private BinaryMemcacheEncoder() {
        super(BinaryMemcacheMessage.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, BinaryMemcacheMessage msg, List<Object> out) {
        int valueLength = msg.content().readableBytes();
        int head = HEADER_LENGTH + msg.extrasLength() + msg.keyLength();
        ByteBuf header = ctx.alloc().ioBuffer(head, head);
        header.writeByte(msg.magic())
                .writeByte(msg.opcode())
                .writeShort(msg.keyLength())
                .writeByte(msg.extrasLength())
                .writeByte(msg.dataType())
                .writeShort(msg.status())
                .writeInt(msg.extrasLength() + msg.keyLength() + valueLength)
                .writeInt(msg.opaque())
                .writeLong(msg.cas())
                .writeBytes(msg.extrasArray())
                .writeBytes(msg.keyArray());
        out.add(header);
        if (valueLength > 0) {
            out.add(msg.content().retain());
        }
    }
}
