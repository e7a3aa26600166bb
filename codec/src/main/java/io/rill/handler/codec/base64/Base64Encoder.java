package io.rill.handler.codec.base64;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;

/**
 * Encodes each outbound {@code ByteBuf} into its Base64 text (see {@link Base64}). Each message
 * is encoded on its own, with its own padding.
 */
@ChannelHandler.Sharable
public class Base64Encoder extends MessageToMessageEncoder<ByteBuf> {

    private final boolean breakLines;
    private final Base64.Dialect dialect;

    /** Standard alphabet, one line per message. */
    public Base64Encoder() {
        this(false, Base64.Dialect.STANDARD);
    }

    /**
     * Encodes each message in the alphabet of {@code dialect}.
     *
     * @param breakLines insert CRLF after every 76 characters (MIME)
     * @param dialect    the alphabet; not null
     * @throws NullPointerException if {@code dialect} is null
     */
    public Base64Encoder(boolean breakLines, Base64.Dialect dialect) {
        super(ByteBuf.class);
        if (dialect == null) {
            throw new NullPointerException("dialect");
        }
        this.breakLines = breakLines;
        this.dialect = dialect;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        out.add(Base64.encode(msg, msg.readerIndex(), msg.readableBytes(), breakLines, dialect, ctx.alloc()));
    }
}
