package io.rill.microbench.peers;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * {@link NettyHttp2HelloServer} with {@code --api frame}: behind Netty's {@code Http2FrameCodec} on
 * the connection's pipeline, like the handler of Rill's {@code http2-hello}. Answers as
 * {@link HelloListener} does; the codec flushes after each read batch, so this handler only writes.
 */
@ChannelHandler.Sharable
final class HelloFrameHandler extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2HeadersFrame frame) {
            answer(ctx, frame.stream(), frame.headers().method());
        } else if (msg instanceof Http2DataFrame data) {
            // The frame codec returns flow-control credit only when told the bytes were consumed.
            int credit = data.initialFlowControlledBytes();
            Http2FrameStream stream = data.stream();
            data.release();
            if (credit > 0) {
                ctx.write(new DefaultHttp2WindowUpdateFrame(credit).stream(stream));
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private static void answer(ChannelHandlerContext ctx, Http2FrameStream stream, CharSequence method) {
        boolean head = method != null && HelloListener.HEAD.contentEquals(method);
        if (head || method != null && HelloListener.GET.contentEquals(method)) {
            Http2Headers headers = new DefaultHttp2Headers().status(HelloListener.OK)
                    .add(HelloListener.CONTENT_TYPE, HelloListener.TEXT_PLAIN)
                    .add(HelloListener.CONTENT_LENGTH, HelloListener.THIRTEEN);
            ctx.write(new DefaultHttp2HeadersFrame(headers, head).stream(stream));
            if (!head) {
                ctx.write(new DefaultHttp2DataFrame(HelloListener.BODY.duplicate(), true).stream(stream));
            }
        } else {
            Http2Headers headers = new DefaultHttp2Headers().status(HelloListener.NOT_FOUND)
                    .add(HelloListener.CONTENT_LENGTH, HelloListener.ZERO);
            ctx.write(new DefaultHttp2HeadersFrame(headers, true).stream(stream));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
