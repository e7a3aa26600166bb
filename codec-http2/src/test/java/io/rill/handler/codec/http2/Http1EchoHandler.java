package io.rill.handler.codec.http2;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;

/**
 * An HTTP/1 application handler, unaware of HTTP/2: answers each request with
 * "METHOD URI host=HOST\n" followed by the request's body. The same class serves HTTP/1.1
 * connections and, behind {@link Http2StreamFrameToHttpObjectCodec}, HTTP/2 streams.
 */
final class Http1EchoHandler implements ChannelHandler {

    private HttpRequest request;
    private ByteBuf body;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest r) {
            request = r;
            body = Unpooled.buffer();
        }
        if (msg instanceof HttpContent content) {
            body.writeBytes(content.content());
            if (content instanceof LastHttpContent) {
                respond(ctx);
            }
        }
        ReferenceCountUtil.release(msg);
    }

    private void respond(ChannelHandlerContext ctx) {
        ByteBuf out = Unpooled.copiedBuffer(request.method() + " " + request.uri() + " host="
                + request.headers().get("host") + "\n", StandardCharsets.UTF_8);
        out.writeBytes(body);
        body.release();
        body = null;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, out);
        response.headers().setInt("content-length", out.readableBytes()).set("content-type", "text/plain");
        ctx.writeAndFlush(response);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseBody();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseBody(); // a request cut short by the close
        ctx.fireChannelInactive();
    }

    private void releaseBody() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
