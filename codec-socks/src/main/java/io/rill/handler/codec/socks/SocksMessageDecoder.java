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
    /** The message was decoded; the decoder leaves once it has been fired. */
    private boolean decoded;

    SocksMessageDecoder() {
    }

    /**
     * Decodes, then leaves once the message has been handled downstream. Leaving only then matters:
     * the handler that gets the message typically adds the next message's decoder right after this
     * one, and the bytes that followed in the same read (a client that pipelines its greeting and
     * its request) must reach that decoder, not the handler.
     */
    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        super.channelRead(ctx, msg);
        if (decoded && !ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (decoded) {
            return; // the rest is the next handler's, passed on when this decoder leaves
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
            decoded = true;
            out.add(message);
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
