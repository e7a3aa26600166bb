package io.rill.handler.codec.http;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.socket.LingeringClose;
import io.rill.util.InternalLogger;

/**
 * How the server-side handlers turn a request down after its head was accepted: a short
 * {@code text/plain} answer with the status, {@code Connection: close}, then a lingering close
 * ({@link LingeringClose}), since the rest of that request's body can no longer be framed or is
 * not worth reading, and the client may still be sending it.
 */
final class HttpRefusal {

    private static final InternalLogger LOG = InternalLogger.get(HttpRefusal.class);

    private HttpRefusal() {
    }

    static void refuseAndClose(ChannelHandlerContext ctx, HttpResponseStatus status, String why) {
        LOG.debug("Refused a request from {} with {}: {}", ctx.channel().remoteAddress(), status, why);
        ByteBuf body = Unpooled.copiedBuffer(status + "\n", StandardCharsets.US_ASCII);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=us-ascii")
                .set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.readableBytes()))
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        LingeringClose.closeAfter(ctx.writeAndFlush(response), ctx);
    }
}
