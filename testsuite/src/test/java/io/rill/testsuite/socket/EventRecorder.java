package io.rill.testsuite.socket;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Records user events, writability changes and exceptions as they pass (forwarding them), so a
 * test thread can take them in order with a bounded wait.
 */
final class EventRecorder implements ChannelHandler {

    final BlockingQueue<Object> userEvents = new LinkedBlockingQueue<>();
    final BlockingQueue<Boolean> writability = new LinkedBlockingQueue<>();
    final BlockingQueue<Throwable> exceptions = new LinkedBlockingQueue<>();

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        userEvents.add(evt);
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        writability.add(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        exceptions.add(cause);
        ctx.fireExceptionCaught(cause);
    }
}
