package io.rill.handler.codec.memcache.binary;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * The body of both decoders: checks each header as soon as its 24 bytes are in, then waits for
 * the body, whose length it has bounded, and hands the whole message on. After a bad header it
 * drops every later byte.
 */
abstract class BinaryMemcacheDecoder extends ByteToMessageDecoder {

    /** memcached's default largest item, plus room for the key and extras. */
    static final int DEFAULT_MAX_BODY_LENGTH = (1 << 20) + BinaryMemcacheMessage.MAX_KEY_LENGTH
            + BinaryMemcacheMessage.MAX_EXTRAS_LENGTH;

    private final byte magic;
    private final int maxBodyLength;
    private boolean broken;

    BinaryMemcacheDecoder(byte magic, int maxBodyLength) {
        if (maxBodyLength < 0) {
            throw new IllegalArgumentException("maxBodyLength must not be negative: " + maxBodyLength);
        }
        this.magic = magic;
        this.maxBodyLength = maxBodyLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (!broken && in.readableBytes() >= BinaryMemcacheEncoder.HEADER_LENGTH) {
            int at = in.readerIndex();
            if (in.getByte(at) != magic) {
                fail(in, "not a binary memcache " + (magic == BinaryMemcacheMessage.REQUEST_MAGIC ? "request" : "response")
                        + ": magic byte 0x" + Integer.toHexString(in.getByte(at) & 0xFF));
            }
            int keyLength = in.getUnsignedShort(at + 2);
            int extrasLength = in.getUnsignedByte(at + 4);
            long bodyLength = in.getUnsignedInt(at + 8);
            if (keyLength > BinaryMemcacheMessage.MAX_KEY_LENGTH) {
                fail(in, "a memcache key of " + keyLength + " bytes, over " + BinaryMemcacheMessage.MAX_KEY_LENGTH);
            }
            if (keyLength + extrasLength > bodyLength) {
                fail(in, "a memcache header whose key (" + keyLength + ") and extras (" + extrasLength
                        + ") do not fit its body (" + bodyLength + " bytes)");
            }
            if (bodyLength > maxBodyLength) {
                fail(in, "a memcache body of " + bodyLength + " bytes, over maxBodyLength (" + maxBodyLength + ")");
            }
            if (in.readableBytes() < BinaryMemcacheEncoder.HEADER_LENGTH + bodyLength) {
                return;
            }
            byte opcode = in.getByte(at + 1);
            byte dataType = in.getByte(at + 5);
            short status = in.getShort(at + 6);
            int opaque = in.getInt(at + 12);
            long cas = in.getLong(at + 16);
            in.skipBytes(BinaryMemcacheEncoder.HEADER_LENGTH);
            byte[] extras = new byte[extrasLength];
            in.readBytes(extras);
            byte[] key = new byte[keyLength];
            in.readBytes(key);
            int valueLength = (int) bodyLength - keyLength - extrasLength;
            ByteBuf value = valueLength == 0 ? Unpooled.EMPTY_BUFFER : in.readRetainedSlice(valueLength);
            out.add(new BinaryMemcacheMessage(magic, opcode, dataType, status, opaque, cas, extras, key, value));
        }
        if (broken) {
            in.skipBytes(in.readableBytes());
        }
    }

    private void fail(ByteBuf in, String why) {
        broken = true;
        in.skipBytes(in.readableBytes());
        throw new MemcacheDecoderException(why);
    }
}
