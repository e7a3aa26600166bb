package io.rill.handler.codec.protobuf;

import java.io.IOException;
import java.util.List;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import com.google.protobuf.MessageLiteOrBuilder;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;

/**
 * Serializes each outbound message (or builder, which is built first) straight into one buffer of
 * its exact size from the channel's allocator: no byte array in between. {@link #DELIMITED} also
 * writes the varint length in front, in the same buffer, which is what
 * {@code ProtobufVarint32FrameDecoder} reads on the other side (and what
 * {@code ProtobufEncoder.PLAIN} plus a separate length prepender would do in two buffers).
 * Stateless: share the two instances.
 */
@ChannelHandler.Sharable
public final class ProtobufEncoder extends MessageToMessageEncoder<MessageLiteOrBuilder> {

    /** The message's bytes alone, for framing done elsewhere (gRPC's, say). */
    public static final ProtobufEncoder PLAIN = new ProtobufEncoder(false);
    /** A base-128 varint length, then the message. */
    public static final ProtobufEncoder DELIMITED = new ProtobufEncoder(true);

    private final boolean delimited;

    private ProtobufEncoder(boolean delimited) {
        super(MessageLiteOrBuilder.class);
        this.delimited = delimited;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, MessageLiteOrBuilder msg, List<Object> out) throws IOException {
        MessageLite message = msg instanceof MessageLite m ? m : ((MessageLite.Builder) msg).build();
        int size = message.getSerializedSize();
        int total = (delimited ? CodedOutputStream.computeUInt32SizeNoTag(size) : 0) + size;
        ByteBuf buf = ctx.alloc().ioBuffer(total, total);
        try {
            int start = buf.writerIndex();
            CodedOutputStream coded = buf.hasArray()
                    ? CodedOutputStream.newInstance(buf.array(), buf.arrayOffset() + start, total)
                    : CodedOutputStream.newInstance(buf.nioBuffer(start, total));
            if (delimited) {
                coded.writeUInt32NoTag(size);
            }
            message.writeTo(coded);
            coded.flush(); // a ByteBuffer-backed stream may hold bytes until flushed
            coded.checkNoSpaceLeft();
            buf.writerIndex(start + total);
            out.add(buf);
            buf = null;
        } finally {
            if (buf != null) {
                buf.release();
            }
        }
    }
}
