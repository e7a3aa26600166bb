package io.rill.handler.codec.http.websocketx.extensions;

import java.util.zip.DataFormatException;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.rill.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.Utf8Validator;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.rill.util.InternalLogger;

/**
 * Inflates incoming messages whose first frame carries RSV1 (RFC 7692 §6.2) and checks that
 * inflated text is UTF-8, which the frame decoder leaves to this handler for compressed messages.
 * Messages without RSV1 pass untouched: a peer may send any message uncompressed.
 *
 * <p>The connection fails, with a close frame written through the pipeline, the channel closed
 * once it is sent and a {@link CorruptedWebSocketFrameException} fired, on:
 * <ul>
 *   <li>RSV1 on a continuation frame: 1002 (§6.1 sets it on the first frame only);
 *   <li>bytes that are not DEFLATE data: 1007, the message's data does not match its type
 *       (RFC 6455 §7.4.1), RFC 7692 §8 naming no status;
 *   <li>a message that inflates past the limit: 1009, with at most the limit buffered. The limit
 *       is the extension's ({@code maxInflatedMessage}) or the frame decoder's
 *       {@code maxMessagePayload}, whichever is smaller;
 *   <li>inflated text that is not UTF-8: 1007, at the first bad byte.
 * </ul>
 * Frames after a failure are dropped, and the frame decoder stops decoding the rest of the read.
 * One instance per connection.
 */
final class PerMessageDeflateDecoder implements ChannelHandler {

    private static final InternalLogger LOG = InternalLogger.get(PerMessageDeflateDecoder.class);

    private final MessageInflater inflater;
    private final Utf8Validator utf8 = new Utf8Validator();
    /** The message in progress is compressed. */
    private boolean inflating;
    /** The message in progress is compressed text. */
    private boolean text;
    /** Frames are dropped: the connection failed, or the inflater was freed. */
    private boolean failed;

    PerMessageDeflateDecoder(MessageInflater inflater) {
        this.inflater = inflater;
    }

    /** Holds compressed messages to the frame decoder's message limit too, which it cannot check on compressed bytes. */
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        WebSocketFrameDecoder frames = ctx.pipeline().get(WebSocketFrameDecoder.class);
        if (frames != null) {
            inflater.capAt(frames.config().maxMessagePayload());
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (failed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!(msg instanceof WebSocketFrame frame) || frame.isControl()) {
            ctx.fireChannelRead(msg);
            return;
        }
        boolean continuation = frame instanceof ContinuationWebSocketFrame;
        boolean rsv1 = (frame.rsv() & WebSocketFrame.RSV1) != 0;
        if (continuation && rsv1) {
            frame.release();
            fail(ctx, CloseWebSocketFrame.PROTOCOL_ERROR, "RSV1 on a continuation frame (RFC 7692 §6.1)");
            return;
        }
        if (!continuation) {
            inflating = rsv1;
            text = frame instanceof TextWebSocketFrame;
            utf8.reset();
        }
        if (!inflating) {
            ctx.fireChannelRead(frame);
            return;
        }
        ByteBuf inflated;
        try {
            inflated = inflater.inflate(ctx.alloc(), frame.content(), frame.isFinalFragment());
        } catch (DataFormatException e) {
            frame.release();
            fail(ctx, CloseWebSocketFrame.INVALID_PAYLOAD, "invalid DEFLATE data: " + e.getMessage());
            return;
        } catch (MessageInflater.TooBigException e) {
            frame.release();
            fail(ctx, CloseWebSocketFrame.MESSAGE_TOO_BIG, e.getMessage());
            return;
        }
        boolean fin = frame.isFinalFragment();
        int rsv = frame.rsv() & ~WebSocketFrame.RSV1;
        frame.release();
        if (text && !checkUtf8(inflated, fin)) {
            inflated.release();
            fail(ctx, CloseWebSocketFrame.INVALID_PAYLOAD, "inflated text is not UTF-8");
            return;
        }
        ctx.fireChannelRead(plainFrame(frame, fin, rsv, inflated));
    }

    private boolean checkUtf8(ByteBuf inflated, boolean fin) {
        for (int i = inflated.readerIndex(), end = inflated.writerIndex(); i < end; i++) {
            if (!utf8.accept(inflated.getByte(i))) {
                return false;
            }
        }
        return !fin || utf8.isComplete();
    }

    private static WebSocketFrame plainFrame(WebSocketFrame original, boolean fin, int rsv, ByteBuf content) {
        if (original instanceof TextWebSocketFrame) {
            return new TextWebSocketFrame(fin, rsv, content);
        }
        if (original instanceof BinaryWebSocketFrame) {
            return new BinaryWebSocketFrame(fin, rsv, content);
        }
        return new ContinuationWebSocketFrame(fin, rsv, content);
    }

    private void fail(ChannelHandlerContext ctx, int status, String reason) {
        failed = true;
        // Frames still in this read would otherwise be decoded, and a bad one reported as a second
        // failure with a second close frame (docs/security-cases.md, case WS-23).
        WebSocketFrameDecoder frames = ctx.pipeline().get(WebSocketFrameDecoder.class);
        if (frames != null) {
            frames.stopDecoding();
        }
        LOG.debug("WebSocket connection {} failed with {}: {}", ctx.channel(), status, reason);
        if (ctx.channel().isActive()) {
            // Through the whole pipeline: the frame encoder (masking on a client) writes it, and
            // the control handler sends nothing after it.
            ctx.channel().writeAndFlush(new CloseWebSocketFrame(status, null)).addListener(f -> ctx.close());
        }
        ctx.fireExceptionCaught(new CorruptedWebSocketFrameException(status, reason));
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        failed = true; // nothing is inflated once the native state is freed
        inflater.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        failed = true;
        inflater.close();
        ctx.fireChannelInactive();
    }
}
