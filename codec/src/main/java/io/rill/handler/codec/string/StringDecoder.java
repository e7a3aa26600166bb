package io.rill.handler.codec.string;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageDecoder;

/**
 * Turns each inbound {@code ByteBuf} into a {@code String}. It does not frame: put a frame
 * decoder before it, or a multi-byte character split across two reads becomes two broken ones.
 *
 * <pre>{@code
 * pipeline.addLast("frames", new LineBasedFrameDecoder(8192));
 * pipeline.addLast("strings", new StringDecoder(StandardCharsets.UTF_8));
 * }</pre>
 *
 * Malformed input becomes U+FFFD replacement characters, as {@link String#String(byte[], Charset)} does.
 */
@ChannelHandler.Sharable
public class StringDecoder extends MessageToMessageDecoder<ByteBuf> {

    private final Charset charset;

    /** Decodes UTF-8. */
    public StringDecoder() {
        this(StandardCharsets.UTF_8);
    }

    /**
     * Decodes {@code charset}.
     *
     * @param charset the encoding; not null
     * @throws NullPointerException if {@code charset} is null
     */
    public StringDecoder(Charset charset) {
        super(ByteBuf.class);
        if (charset == null) {
            throw new NullPointerException("charset");
        }
        this.charset = charset;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        out.add(msg.toString(charset));
    }
}
