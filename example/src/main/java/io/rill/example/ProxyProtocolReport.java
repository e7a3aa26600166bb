package io.rill.example;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.haproxy.HAProxyMessage;
import io.rill.handler.codec.haproxy.HAProxyMessageDecoder;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;

/**
 * {@code http-hello --proxy-protocol}: answers {@code GET /client} with what the PROXY protocol
 * header said, one line: {@code client 192.0.2.1:56324 via 127.0.0.1:40000} (the learned source
 * address, then {@code Channel.remoteAddress()}, which is the proxy's). Every other request goes on
 * to the hello handler. The header itself is read by the {@link HAProxyMessageDecoder} first in
 * the pipeline, which left its {@link HAProxyMessage} in the channel attribute.
 */
final class ProxyProtocolReport implements ChannelHandler {

    static final String PATH = "/client";

    /** The request being answered here: its body parts are dropped until its end. */
    private boolean answering;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request && request.method().equals(HttpMethod.GET) && request.uri().equals(PATH)) {
            answering = true;
            HAProxyMessage header = ctx.channel().attr(HAProxyMessageDecoder.MESSAGE).get();
            String client = header == null ? "unknown" : header.sourceSocketAddress() == null
                    ? header.command() + " " + header.protocol() : format(header.sourceSocketAddress());
            byte[] body = ("client " + client + " via " + format(ctx.channel().remoteAddress()) + "\n")
                    .getBytes(StandardCharsets.US_ASCII);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain")
                    .set(HttpHeaderNames.CONTENT_LENGTH, body.length);
            ctx.writeAndFlush(response);
        }
        if (answering) {
            if (msg instanceof LastHttpContent) {
                answering = false;
            }
            if (msg instanceof HttpContent || msg instanceof HttpRequest) {
                ReferenceCountUtil.release(msg);
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    private static String format(java.net.SocketAddress address) {
        if (address instanceof java.net.InetSocketAddress inet) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
