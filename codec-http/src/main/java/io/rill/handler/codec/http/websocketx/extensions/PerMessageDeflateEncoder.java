package io.rill.handler.codec.http.websocketx.extensions;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.util.concurrent.Promise;

/**
 * Compresses every outgoing data message (RFC 7692 §6): the first frame of a message gets RSV1,
 * its continuation frames are compressed into the same stream without it (§6.1), control frames
 * pass untouched. A frame the application already marked with RSV1 is taken as compressed by
 * the application and passed on with the rest of its message. One instance per connection.
 */
final class PerMessageDeflateEncoder implements ChannelHandler {

    private final MessageDeflater deflater;
    /** A fragmented message is in progress and is being compressed. */
    private boolean compressing;
    /** A fragmented message the application compressed itself is in progress. */
    private boolean passing;
    /** The compressor was freed: the channel closed or this handler left the pipeline. */
    private boolean ended;

    PerMessageDeflateEncoder(MessageDeflater deflater) {
        this.deflater = deflater;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (!(msg instanceof WebSocketFrame frame) || frame.isControl() || !shouldCompress(frame)) {
            ctx.write(msg, promise);
            return;
        }
        if (ended) {
            frame.release(); // written after the channel closed: the compressor's native state is gone
            promise.tryFailure(new java.nio.channels.ClosedChannelException());
            return;
        }
        ByteBuf compressed;
        try {
            compressed = deflater.deflate(ctx.alloc(), frame.content(), frame.isFinalFragment());
        } finally {
            frame.release();
        }
        compressing = !frame.isFinalFragment();
        WebSocketFrame out;
        if (frame instanceof TextWebSocketFrame) {
            out = new TextWebSocketFrame(frame.isFinalFragment(), frame.rsv() | WebSocketFrame.RSV1, compressed);
        } else if (frame instanceof BinaryWebSocketFrame) {
            out = new BinaryWebSocketFrame(frame.isFinalFragment(), frame.rsv() | WebSocketFrame.RSV1, compressed);
        } else {
            out = new ContinuationWebSocketFrame(frame.isFinalFragment(), frame.rsv(), compressed);
        }
        ctx.write(out, promise);
    }

    /** Tracks whole messages: a message is compressed, or passed as it is, from its first frame to its last. */
    private boolean shouldCompress(WebSocketFrame frame) {
        if (frame instanceof ContinuationWebSocketFrame) {
            if (passing) {
                passing = !frame.isFinalFragment();
                return false;
            }
            return compressing;
        }
        if ((frame.rsv() & WebSocketFrame.RSV1) != 0) {
            passing = !frame.isFinalFragment();
            return false;
        }
        return true;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        ended = true;
        deflater.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ended = true;
        deflater.close();
        ctx.fireChannelInactive();
    }
}
