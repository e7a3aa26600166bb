package io.rill.example;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;

/**
 * What an HTTP/2-only port tells an HTTP/1.1 client: {@code 505 HTTP Version Not Supported} with
 * one line saying which protocol the port speaks and how to reach it, then the close. Without it
 * such a client (curl, a browser) would get the HTTP/2 codec's GOAWAY as raw bytes ("Received
 * HTTP/0.9"). The first request of the connection is answered; the rest is not read.
 */
final class Http2OnlyAnswer implements ChannelHandler {

    private final String explanation;

    private Http2OnlyAnswer(String explanation) {
        this.explanation = explanation;
    }

    /**
     * The HTTP/1.1 side of an HTTP/2-only port, for {@code CleartextHttpProtocolDetector} or ALPN.
     *
     * @param explanation the line of the answer's body, e.g. "grpc-echo speaks gRPC over HTTP/2 only ..."
     */
    static ChannelInitializer<Channel> pipeline(String explanation) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new Http2OnlyAnswer(explanation));
            }
        };
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        boolean request = msg instanceof HttpRequest;
        ReferenceCountUtil.release(msg);
        if (!request) {
            return; // its body, or what follows the refused request
        }
        ctx.channel().config().setAutoRead(false);
        byte[] body = (explanation + "\n").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.SERVER, HttpHelloServer.HelloResponse.SERVER)
                .set(HttpHeaderNames.DATE, HttpHelloServer.HttpDateCache.now());
        ctx.writeAndFlush(response).addListener(f -> ctx.close());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
