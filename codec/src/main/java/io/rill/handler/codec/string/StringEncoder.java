package io.rill.handler.codec.string;

import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;

/**
 * Turns each outbound {@code CharSequence} into a {@code ByteBuf}. It adds no framing; see
 * {@link LineEncoder} for text lines. An empty string writes an empty buffer.
 */
@ChannelHandler.Sharable
public class StringEncoder extends MessageToMessageEncoder<CharSequence> {

    private final Charset charset;

    /** Encodes UTF-8. */
    public StringEncoder() {
        this(StandardCharsets.UTF_8);
    }

    /**
     * Encodes in {@code charset}.
     *
     * @param charset the encoding; not null
     * @throws NullPointerException if {@code charset} is null
     */
    public StringEncoder(Charset charset) {
        super(CharSequence.class);
        if (charset == null) {
            throw new NullPointerException("charset");
        }
        this.charset = charset;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, CharSequence msg, List<Object> out) {
        out.add(encode(ctx, msg, charset, 0));
    }

    /** {@code text} in {@code charset}, with room for {@code extraBytes} more (UTF-8 and ASCII sized exactly). */
    static ByteBuf encode(ChannelHandlerContext ctx, CharSequence text, Charset charset, int extraBytes) {
        if (charset.equals(StandardCharsets.UTF_8)) {
            ByteBuf buf = ctx.alloc().buffer(ByteBufUtil.utf8Bytes(text) + extraBytes);
            ByteBufUtil.writeUtf8(buf, text);
            return buf;
        }
        if (charset.equals(StandardCharsets.US_ASCII) || charset.equals(StandardCharsets.ISO_8859_1)) {
            ByteBuf buf = ctx.alloc().buffer(text.length() + extraBytes);
            buf.writeCharSequence(text, charset);
            return buf;
        }
        return ByteBufUtil.encodeString(ctx.alloc(), CharBuffer.wrap(text), charset);
    }
}
