package io.rill.channel;

import java.net.SocketAddress;

import io.rill.util.concurrent.Promise;

/**
 * The handler at the head of every pipeline: the end of the outbound direction, where
 * operations become calls on the channel's transport methods. It also turns the start and the
 * end of a read burst into the next read request when {@code AUTO_READ} is on.
 */
@ChannelHandler.Sharable
final class PipelineHead implements ChannelHandler {

    private final AbstractChannel channel;

    PipelineHead(AbstractChannel channel) {
        this.channel = channel;
    }

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress localAddress, Promise<Void> promise) {
        channel.bindNow(localAddress, promise);
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                        Promise<Void> promise) {
        channel.connectNow(remoteAddress, localAddress, promise);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, Promise<Void> promise) {
        channel.disconnectNow(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
        channel.closeNow(promise);
    }

    @Override
    public void register(ChannelHandlerContext ctx, Promise<Void> promise) {
        channel.registerNow(promise);
    }

    @Override
    public void deregister(ChannelHandlerContext ctx, Promise<Void> promise) {
        channel.deregisterNow(promise);
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        channel.beginReadNow();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        channel.writeNow(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        channel.flushNow();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.fireChannelActive();
        readIfAutoRead();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.fireChannelReadComplete();
        readIfAutoRead();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        channel.updateReadPause();
        ctx.fireChannelWritabilityChanged();
    }

    private void readIfAutoRead() {
        if (channel.config().isReadingAutomatically()) {
            channel.read();
        }
    }
}
