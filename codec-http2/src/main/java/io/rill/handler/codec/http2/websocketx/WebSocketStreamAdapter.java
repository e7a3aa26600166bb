package io.rill.handler.codec.http2.websocketx;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.rill.handler.codec.http.websocketx.WebSocketExtension;
import io.rill.handler.codec.http.websocketx.WebSocketHandlers;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Lets the WebSocket handlers run on an HTTP/2 stream channel (RFC 8441 §5): the first handler of
 * the stream's pipeline once the extended CONNECT succeeded. Inbound, each DATA frame's content is
 * passed on as bytes; outbound, bytes go out as DATA frames, so the stream's flow control is the
 * WebSocket's back-pressure (the stream channel's writability).
 *
 * <p>The ends map as RFC 8441 §5 maps them to TCP: END_STREAM is the FIN, RST_STREAM the RST. A
 * close after a WebSocket close frame went out (the close handshake, or the decoder failing the
 * connection with 1002/1007/1009) sends an empty DATA frame with END_STREAM and lets the stream
 * end when the peer's END_STREAM arrives, or resets it after the close timeout. A close with no
 * close frame sent is an abort: the stream channel resets the stream with CANCEL. A peer that ends
 * its side first gets our END_STREAM back, like a FIN answered by a FIN.
 *
 * <p>One instance per stream; event loop only.
 */
final class WebSocketStreamAdapter implements ChannelHandler {

    private static final int OPCODE_CLOSE = 0x8;

    private final long closeTimeoutNanos;
    /** A WebSocket close frame is among the bytes written: a close from now on is an orderly one. */
    private boolean closeFrameSent;
    /** Our END_STREAM went out; nothing more may be written. */
    private boolean localEnded;
    /** Payload bytes of the last frame whose header went out that are still to pass; 0 at a frame boundary. */
    private long payloadLeft;
    private ScheduledFuture<?> endTimer;

    WebSocketStreamAdapter(Duration closeTimeout) {
        this.closeTimeoutNanos = closeTimeout.toNanos();
    }

    /**
     * Makes {@code self}'s stream a WebSocket: an adapter and the {@linkplain WebSocketHandlers
     * WebSocket handlers} go right after {@code self}, which is removed, and {@code event} is fired
     * from the last of them toward the application.
     */
    static void install(ChannelHandlerContext self, WebSocketDecoderConfig config,
            List<WebSocketExtension> extensions, Duration closeTimeout, Object event) {
        ChannelPipeline pipeline = self.pipeline();
        List<ChannelHandler> added = WebSocketHandlers.afterHandshake(config, extensions, closeTimeout);
        added.add(0, new WebSocketStreamAdapter(closeTimeout));
        String after = self.name();
        for (ChannelHandler h : added) {
            pipeline.addAfter(after, null, h);
            after = pipeline.context(h).name();
        }
        pipeline.remove(self.name());
        pipeline.context(added.get(added.size() - 1)).fireUserEventTriggered(event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2DataFrame data) {
            boolean end = data.endStream();
            ByteBuf content = data.content(); // the frame's only resource: passing it on passes ownership
            if (content.isReadable()) {
                ctx.fireChannelRead(content);
            } else {
                content.release();
            }
            if (end) {
                peerEnded(ctx);
            }
        } else if (msg instanceof Http2HeadersFrame headers) {
            if (headers.endStream()) { // trailers carry nothing for a WebSocket, but may end the stream
                peerEnded(ctx);
            }
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void peerEnded(ChannelHandlerContext ctx) {
        if (!localEnded) {
            endStream(ctx);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        if (!(msg instanceof ByteBuf bytes)) {
            ctx.write(msg, promise);
            return;
        }
        if (localEnded) {
            bytes.release();
            promise.tryFailure(new IllegalStateException("the WebSocket's stream has ended (END_STREAM sent)"));
            return;
        }
        watchForCloseFrame(bytes);
        ctx.write(new Http2DataFrame(0, bytes, false), promise);
    }

    /**
     * Follows the frame boundaries of the outgoing bytes to notice a close frame. Our encoders write
     * each frame header whole into one buffer (the payload may follow in its own), so a header
     * never straddles two writes; the decoder's close on a protocol error is one whole frame too.
     */
    private void watchForCloseFrame(ByteBuf bytes) {
        int i = bytes.readerIndex();
        int end = bytes.writerIndex();
        while (i < end) {
            if (payloadLeft > 0) {
                int n = (int) Math.min(payloadLeft, end - i);
                i += n;
                payloadLeft -= n;
                continue;
            }
            if (end - i < 2) {
                return;
            }
            int b0 = bytes.getUnsignedByte(i);
            int b1 = bytes.getUnsignedByte(i + 1);
            if ((b0 & 0x0F) == OPCODE_CLOSE) {
                closeFrameSent = true;
            }
            int length7 = b1 & 0x7F;
            int header = 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + ((b1 & 0x80) != 0 ? 4 : 0);
            if (end - i < header) {
                return;
            }
            payloadLeft = length7 == 126 ? bytes.getUnsignedShort(i + 2) : length7 == 127 ? bytes.getLong(i + 2) : length7;
            i += header;
        }
    }

    @Override
    public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
        if (!closeFrameSent || localEnded || !ctx.channel().isActive()) {
            ctx.close(promise); // an abort, or the end already sent: the stream channel resets if still needed
            return;
        }
        endStream(ctx);
        ctx.channel().closeFuture().addListener(f -> promise.trySuccess(null));
        // the peer never ending its side costs a reset with CANCEL, not a stream held open forever
        endTimer = ctx.executor().schedule(() -> ctx.close(), closeTimeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** Our END_STREAM: an empty DATA frame; the stream channel closes once the peer's has been read too. */
    private void endStream(ChannelHandlerContext ctx) {
        localEnded = true;
        ctx.writeAndFlush(new Http2DataFrame(0, Unpooled.EMPTY_BUFFER, true));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelTimer();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimer();
    }

    private void cancelTimer() {
        if (endTimer != null) {
            endTimer.cancel(false);
            endTimer = null;
        }
    }
}
