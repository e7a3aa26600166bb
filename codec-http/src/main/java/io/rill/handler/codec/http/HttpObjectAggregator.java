package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.CompositeByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.DecoderResult;

/**
 * Joins a message head and its body pieces into one {@link FullHttpRequest} or
 * {@link FullHttpResponse}, without copying: the pieces become components of a composite buffer.
 *
 * <p>The body is bounded by {@code maxContentLength}. A request announcing more
 * ({@code Content-Length}) is answered {@code 413} before any body is read; one whose chunked body
 * grows past the bound is answered {@code 413} when it does; both close the connection, since the
 * rest of the body would otherwise be taken for the next request. A request saying
 * {@code Expect: 100-continue} is told to go on ({@code 100 Continue}) if its body fits, 413 if
 * not, and an expectation other than {@code 100-continue} is refused with 417 (RFC 9110 §10.1.1).
 * A response over the bound fails with a {@link TooLongHttpContentException}. Messages the decoder
 * rejected pass through as full messages with their failed {@link DecoderResult}.
 */
public class HttpObjectAggregator implements ChannelHandler {

    private static final int MAX_COMPONENTS = 1024;

    private final int maxContentLength;
    /** The message being joined, or null. Loop-confined. */
    private FullHttpMessage current;
    /** True while the rest of a refused message is being skipped. */
    private boolean discarding;
    /** True while a message that is not aggregated passes through piece by piece. */
    private boolean passingThrough;

    /**
     * Joins messages whose bodies are at most {@code maxContentLength} bytes.
     *
     * @param maxContentLength the largest body joined; a request over it is answered 413
     * @throws IllegalArgumentException if {@code maxContentLength} is negative
     */
    public HttpObjectAggregator(int maxContentLength) {
        if (maxContentLength < 0) {
            throw new IllegalArgumentException("maxContentLength must not be negative: " + maxContentLength);
        }
        this.maxContentLength = maxContentLength;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpMessage head) {
            startMessage(ctx, head);
            if (passingThrough && !(msg instanceof HttpContent)) {
                ctx.fireChannelRead(msg);
                return;
            }
        }
        if (msg instanceof HttpContent content) {
            addContent(ctx, content);
        } else if (!(msg instanceof HttpMessage)) {
            ctx.fireChannelRead(msg);
        }
    }

    private void startMessage(ChannelHandlerContext ctx, HttpMessage head) {
        if (current != null) {
            current.release(); // a head before the previous body ended: the decoder already failed that one
            current = null;
        }
        discarding = false;
        passingThrough = false;
        if (head instanceof FullHttpMessage) {
            return; // already whole: passed on by addContent
        }
        if (!shouldAggregate(head)) {
            passingThrough = true;
            return;
        }
        if (head.decoderResult().isSuccess() && !acceptHead(ctx, head)) {
            discarding = true;
            return;
        }
        CompositeByteBuf body = ctx.alloc().compositeBuffer(MAX_COMPONENTS);
        current = head instanceof HttpRequest r
                ? new DefaultFullHttpRequest(r.protocolVersion(), r.method(), r.uri(), body, r.headers(), new HttpHeaders())
                : new DefaultFullHttpResponse(head.protocolVersion(), ((HttpResponse) head).status(), body,
                        head.headers(), new HttpHeaders());
        current.setDecoderResult(head.decoderResult());
    }

    /** Checks size and expectations of a request head; false if it was refused (and answered). */
    private boolean acceptHead(ChannelHandlerContext ctx, HttpMessage head) {
        long length = HttpUtil.getContentLength(head, -1);
        if (head instanceof HttpRequest) {
            CharSequence expect = head.headers().getCharSequence(HttpHeaderNames.EXPECT);
            if (expect != null && !(HttpUtil.is100ContinueExpected(head))) {
                HttpRefusal.refuseAndClose(ctx, HttpResponseStatus.EXPECTATION_FAILED, "unsupported expectation " + expect);
                return false;
            }
            if (length > maxContentLength) {
                HttpRefusal.refuseAndClose(ctx, HttpResponseStatus.CONTENT_TOO_LARGE, "Content-Length " + length + " over " + maxContentLength);
                return false;
            }
            if (expect != null) {
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
                head.headers().remove(HttpHeaderNames.EXPECT);
            }
        } else if (length > maxContentLength) {
            throw new TooLongHttpContentException("response Content-Length " + length + " over " + maxContentLength);
        }
        return true;
    }

    /**
     * Whether to join this message; by default every one. A server that streams most requests can
     * aggregate only some (the others then pass through as they came, unbounded by this handler).
     *
     * @param head the message's head
     * @return true to join it
     */
    protected boolean shouldAggregate(HttpMessage head) {
        return true;
    }

    private void addContent(ChannelHandlerContext ctx, HttpContent content) {
        if (content instanceof FullHttpMessage full) {
            ctx.fireChannelRead(full);
            return;
        }
        if (passingThrough) {
            passingThrough = !(content instanceof LastHttpContent);
            ctx.fireChannelRead(content);
            return;
        }
        if (discarding || current == null) {
            content.release();
            return;
        }
        CompositeByteBuf body = (CompositeByteBuf) current.content();
        ByteBuf piece = content.content();
        if (body.readableBytes() + (long) piece.readableBytes() > maxContentLength) {
            content.release();
            boolean request = current instanceof HttpRequest;
            current.release();
            current = null;
            discarding = true;
            if (!request) {
                throw new TooLongHttpContentException("response body over " + maxContentLength + " bytes");
            }
            HttpRefusal.refuseAndClose(ctx, HttpResponseStatus.CONTENT_TOO_LARGE, "body over " + maxContentLength + " bytes");
            return;
        }
        body.addComponent(true, piece.retain());
        DecoderResult result = content.decoderResult();
        if (result.isFailure()) {
            current.setDecoderResult(result);
        }
        if (content instanceof LastHttpContent last) {
            current.trailingHeaders().add(last.trailingHeaders());
            if (!current.headers().contains(HttpHeaderNames.CONTENT_LENGTH) || HttpUtil.isTransferEncodingChunked(current)) {
                current.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
                current.headers().set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.readableBytes()));
            }
            FullHttpMessage done = current;
            current = null;
            content.release();
            ctx.fireChannelRead(done);
            return;
        }
        content.release();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseCurrent();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseCurrent();
    }

    private void releaseCurrent() {
        if (current != null) {
            ReferenceCountUtil.release(current);
            current = null;
        }
    }
}
