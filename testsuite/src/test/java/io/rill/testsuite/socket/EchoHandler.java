package io.rill.testsuite.socket;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/** Writes back what it reads, flushing once per read burst; closes on an error. */
@ChannelHandler.Sharable
final class EchoHandler implements ChannelHandler {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
