package io.rill.handler.codec.http.walkthrough;

import java.nio.charset.StandardCharsets;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.HttpVersion;

public final class HelloServer {

    public static void main(String[] args) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        try {
            start(group, 8080).closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    static Channel start(EventLoopGroup group, int port) throws InterruptedException {
        return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                new HelloHandler());
                    }
                })
                .bind(port).sync().getNow();
    }

    static final class HelloHandler implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                byte[] hello = "Hello, World!\n".getBytes(StandardCharsets.UTF_8);
                FullHttpResponse response = new DefaultFullHttpResponse(
                        HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(hello));
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                        .setInt(HttpHeaderNames.CONTENT_LENGTH, hello.length);
                ctx.writeAndFlush(response);
            }
            ReferenceCountUtil.release(msg); // the codec hands over requests and body pieces: we own them
        }
    }
}
