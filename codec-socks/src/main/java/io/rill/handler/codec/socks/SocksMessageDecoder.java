package io.rill.handler.codec.socks;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * The base of every SOCKS decoder: decodes one message, then leaves the pipeline so the bytes after
 * it reach the next handler untouched. SOCKS messages are small (at most 515 bytes, or a SOCKS4
 * request's capped fields), so {@link #tryParse} reads from the start each time more bytes arrive
 * instead of keeping a parse state.
 *
 * <p>After a bad message the decoder stays, drops every later byte and decodes nothing more: a
 * handshake cannot be resynchronised and what follows a bad message must not reach the tunnel.
 */
public abstract sealed class SocksMessageDecoder extends ByteToMessageDecoder permits Socks4CommandRequestDecoder,
        Socks4CommandResponseDecoder, Socks5InitialRequestDecoder, Socks5InitialResponseDecoder,
        Socks5PasswordAuthRequestDecoder, Socks5PasswordAuthResponseDecoder, Socks5CommandRequestDecoder,
        Socks5CommandResponseDecoder {

    /** A bad message was seen; every later byte is dropped. */
    private boolean failed;

    SocksMessageDecoder() {
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        SocksMessage message;
        try {
            message = tryParse(in);
        } catch (RuntimeException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
        if (message != null) {
            out.add(message);
            ctx.pipeline().remove(this);
        }
    }

    /**
     * Parses one message from the start of {@code in}.
     *
     * @param in the bytes received so far
     * @return the message, with its bytes consumed; or null, consuming nothing, if more bytes are needed
     * @throws SocksProtocolException if the bytes cannot be this message
     * @throws SocksFieldTooLongException if a field passes its cap
     */
    abstract SocksMessage tryParse(ByteBuf in);
}
