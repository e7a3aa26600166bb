package io.rill.handler.codec.http;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Answers {@code Expect: 100-continue} for applications that read bodies piece by piece (an
 * {@link HttpObjectAggregator} answers it itself): {@code 100 Continue} when
 * {@link #accept(HttpRequest)} agrees, else the response it returns (417 by default) with the
 * connection closed. Any other expectation is refused with 417 (RFC 9110 §10.1.1).
 */
public class HttpServerExpectContinueHandler implements ChannelHandler {

    /** Drops the body of a refused request until its end. */
    private boolean discarding;

    /**
     * Decides a request that expects 100-continue: null to let it send its body, or the final
     * response to refuse it with.
     *
     * @param request the head of a request with {@code Expect: 100-continue}
     * @return null to accept, or the refusal, which this handler sends and releases
     */
    protected HttpResponse accept(HttpRequest request) {
        return null;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request && request.headers().contains(HttpHeaderNames.EXPECT)) {
            HttpResponse refusal = HttpUtil.is100ContinueExpected(request) ? accept(request)
                    : new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.EXPECTATION_FAILED);
            if (refusal != null) {
                ReferenceCountUtil.release(msg);
                discarding = !(msg instanceof LastHttpContent);
                HttpUtil.setKeepAlive(refusal, false);
                if (!(refusal instanceof FullHttpMessage)) {
                    ctx.write(refusal);
                    refusal = null;
                }
                ctx.writeAndFlush(refusal != null ? refusal : LastHttpContent.EMPTY_LAST_CONTENT)
                        .addListener(f -> ctx.close());
                return;
            }
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
            request.headers().remove(HttpHeaderNames.EXPECT);
        } else if (discarding && msg instanceof HttpContent) {
            discarding = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
