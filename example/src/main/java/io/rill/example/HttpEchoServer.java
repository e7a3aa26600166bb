package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpDecoderConfig;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.util.InternalLogger;

/**
 * Answers every request with what it received, as {@code text/plain}: the request line, each
 * header field, an empty line, then the body (up to 1 MiB; 413 beyond). Try
 * {@code curl -i --data hello http://127.0.0.1:8080/any/path}.
 */
final class HttpEchoServer implements Example {

    static final int MAX_BODY = 1 << 20;

    @Override
    public String name() {
        return "http-echo";
    }

    @Override
    public String description() {
        return "answers every HTTP request with its method, target, headers and body";
    }

    @Override
    public List<ExampleOption> options() {
        return HttpTimeoutOptions.ALL;
    }

    @Override
    public List<String> limits() {
        return HttpTimeoutOptions.limits("request body: 1 MiB (413 beyond)");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        ServerRunner.run(options, name(), initializer(HttpTimeoutOptions.from(options)));
    }

    static ChannelInitializer<Channel> initializer() {
        return initializer(HttpServerTimeouts.DEFAULT);
    }

    static ChannelInitializer<Channel> initializer(HttpServerTimeouts timeouts) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(HttpDecoderConfig.DEFAULT,
                        HttpServerCodec.DEFAULT_MAX_PENDING_REQUESTS, timeouts), new HttpServerKeepAliveHandler(),
                        new HttpObjectAggregator(MAX_BODY), new Echo());
            }
        };
    }

    @ChannelHandler.Sharable
    static final class Echo implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(Echo.class);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpRequest request = (FullHttpRequest) msg;
            try {
                StringBuilder head = new StringBuilder().append(request.method()).append(' ').append(request.uri())
                        .append(' ').append(request.protocolVersion()).append('\n');
                for (int i = 0; i < request.headers().size(); i++) {
                    head.append(request.headers().nameAt(i)).append(": ").append(request.headers().valueAt(i)).append('\n');
                }
                head.append('\n');
                byte[] text = head.toString().getBytes(StandardCharsets.UTF_8);
                ByteBuf body = ctx.alloc().buffer(text.length + request.content().readableBytes());
                body.writeBytes(text).writeBytes(request.content(), request.content().readerIndex(),
                        request.content().readableBytes());
                FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK, body);
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                        .set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.readableBytes()));
                ctx.write(response);
            } finally {
                request.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error: {}", ctx.channel(), cause.toString());
            ctx.close();
        }
    }
}
