package io.rill.handler.codec.base64;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageDecoder;

/**
 * Decodes each inbound {@code ByteBuf} of Base64 text (see {@link Base64}). Each message must be
 * complete Base64 on its own, so put a frame decoder before this one, e.g. a
 * {@link io.rill.handler.codec.DelimiterBasedFrameDecoder} on line endings. Bytes outside the
 * alphabet raise a {@link io.rill.handler.codec.DecoderException} naming the byte and its offset.
 */
@ChannelHandler.Sharable
public class Base64Decoder extends MessageToMessageDecoder<ByteBuf> {

    private final Base64.Dialect dialect;

    /** The standard alphabet. */
    public Base64Decoder() {
        this(Base64.Dialect.STANDARD);
    }

    /**
     * Decodes the alphabet of {@code dialect}.
     *
     * @param dialect the alphabet; not null
     * @throws NullPointerException if {@code dialect} is null
     */
    public Base64Decoder(Base64.Dialect dialect) {
        super(ByteBuf.class);
        if (dialect == null) {
            throw new NullPointerException("dialect");
        }
        this.dialect = dialect;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        out.add(Base64.decode(msg, msg.readerIndex(), msg.readableBytes(), dialect, ctx.alloc()));
    }
}
