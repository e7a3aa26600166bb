package io.rill.channel;

import io.rill.buffer.ReferenceCountUtil;

/**
 * The handler at the tail of every pipeline: the end of the inbound direction. Whatever gets
 * here was not consumed by any handler; it goes to the channel's {@code onUnhandled*} hooks,
 * which release messages and log, so a forgotten handler never leaks a buffer.
 */
@ChannelHandler.Sharable
final class PipelineTail implements ChannelHandler {

    private final AbstractChannel channel;

    PipelineTail(AbstractChannel channel) {
        this.channel = channel;
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) {
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        channel.onUnhandledInboundMessage(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        // An event is a message to nobody in particular: no log, but it must not leak.
        ReferenceCountUtil.safeRelease(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        channel.onUnhandledInboundException(cause);
    }
}
