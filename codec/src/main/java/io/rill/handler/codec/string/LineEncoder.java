package io.rill.handler.codec.string;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;

/**
 * Writes each outbound {@code CharSequence} as one line: its characters followed by a
 * {@link LineSeparator}, in one buffer. The counterpart of a
 * {@link io.rill.handler.codec.LineBasedFrameDecoder} followed by a {@link StringDecoder}.
 * The charset must encode the separator's ASCII characters as single bytes (UTF-8, ISO-8859-1, ...).
 */
@ChannelHandler.Sharable
public class LineEncoder extends MessageToMessageEncoder<CharSequence> {

    private final Charset charset;
    private final byte[] separator;

    /** UTF-8 lines ended by the platform's separator. */
    public LineEncoder() {
        this(LineSeparator.DEFAULT, StandardCharsets.UTF_8);
    }

    /**
     * UTF-8 lines ended by {@code separator}.
     *
     * @param separator what ends each line; not null
     */
    public LineEncoder(LineSeparator separator) {
        this(separator, StandardCharsets.UTF_8);
    }

    /**
     * Lines in {@code charset} ended by {@code separator}.
     *
     * @param separator what ends each line; not null
     * @param charset   the encoding of the line's characters; must encode ASCII as single bytes
     * @throws NullPointerException if an argument is null
     */
    public LineEncoder(LineSeparator separator, Charset charset) {
        super(CharSequence.class);
        if (separator == null || charset == null) {
            throw new NullPointerException(separator == null ? "separator" : "charset");
        }
        this.charset = charset;
        this.separator = separator.bytes();
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, CharSequence msg, List<Object> out) {
        ByteBuf buf = StringEncoder.encode(ctx, msg, charset, separator.length);
        buf.writeBytes(separator);
        out.add(buf);
    }
}
