package io.rill.handler.codec.http.websocketx;

import io.rill.buffer.CompositeByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.InternalLogger;

/**
 * Joins a fragmented message (a text or binary frame with FIN unset and its continuations) into
 * one final {@link TextWebSocketFrame} or {@link BinaryWebSocketFrame}, holding at most
 * {@code maxMessageBytes}. A message that would exceed it is answered with close 1009, what was
 * gathered is released and the channel is closed; nothing more is gathered. Unfragmented and
 * control frames pass through. Put it after the protocol handler (or the frame decoder and its
 * extensions, so it joins plain frames); one instance per connection, event loop only.
 */
public final class WebSocketFrameAggregator implements ChannelHandler {

    private static final InternalLogger LOG = InternalLogger.get(WebSocketFrameAggregator.class);

    private final int maxMessageBytes;
    /** The message being joined, holding its first frame's kind and RSV bits; null between messages. */
    private WebSocketFrame first;
    /** The payloads so far; owned here while {@code first != null}. */
    private CompositeByteBuf gathered;
    /** The cap was exceeded: data frames are dropped until the connection closes. */
    private boolean tooBig;

    /**
     * @param maxMessageBytes the largest joined payload
     * @throws IllegalArgumentException if it is not positive
     */
    public WebSocketFrameAggregator(int maxMessageBytes) {
        if (maxMessageBytes <= 0) {
            throw new IllegalArgumentException("maxMessageBytes: " + maxMessageBytes + " (expected > 0)");
        }
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof WebSocketFrame frame) || frame.isControl()) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (tooBig) {
            frame.release();
            return;
        }
        if (first == null) {
            if (frame.isFinalFragment() || frame instanceof ContinuationWebSocketFrame) {
                ctx.fireChannelRead(msg); // whole already, or not ours to judge (the decoder refuses strays)
                return;
            }
            first = frame;
            gathered = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
        } else if (!(frame instanceof ContinuationWebSocketFrame)) {
            ctx.fireChannelRead(msg); // cannot come from a strict decoder
            return;
        }
        if (gathered.readableBytes() + (long) frame.content().readableBytes() > maxMessageBytes) {
            frame.release();
            refuse(ctx);
            return;
        }
        gathered.addComponent(true, frame.content().retain());
        boolean last = frame.isFinalFragment();
        if (frame != first) {
            frame.release();
        }
        if (last) {
            WebSocketFrame joined = first instanceof TextWebSocketFrame
                    ? new TextWebSocketFrame(true, first.rsv(), gathered)
                    : new BinaryWebSocketFrame(true, first.rsv(), gathered);
            first.release();
            first = null;
            gathered = null;
            ctx.fireChannelRead(joined);
        }
    }

    private void refuse(ChannelHandlerContext ctx) {
        LOG.debug("{}: message over {} bytes, closing with 1009", ctx.channel(), maxMessageBytes);
        tooBig = true;
        releaseGathered();
        ctx.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.MESSAGE_TOO_BIG, null))
                .addListener(f -> ctx.close());
    }

    private void releaseGathered() {
        if (first != null) {
            first.release();
            gathered.release();
            first = null;
            gathered = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseGathered();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseGathered();
    }
}
