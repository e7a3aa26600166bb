package io.rill.channel;

import io.rill.buffer.ByteBufAllocator;
import io.rill.util.concurrent.EventExecutor;

/**
 * A handler's place in a {@link ChannelPipeline}: the handler's view of its neighbours.
 *
 * <p>The {@code fireXxx} methods pass an inbound event to the next handler towards the tail
 * that handles it; the outbound operations pass an operation to the next handler towards the
 * head. Handlers that do not override the method in question are walked past.
 *
 * <p>A context stays usable after its handler was removed: events sent through it still
 * reach the handlers that were next to it, so a handler may remove itself in the middle of
 * an event and pass the event on.
 */
public interface ChannelHandlerContext extends ChannelOutboundInvoker {

    /** The handler's unique name in its pipeline. */
    String name();

    ChannelHandler handler();

    Channel channel();

    ChannelPipeline pipeline();

    /** The executor the handler's methods run on: the channel's event loop unless bound to another group. */
    EventExecutor executor();

    /** The channel's buffer allocator. */
    ByteBufAllocator alloc();

    /** True once the handler has been removed from the pipeline. */
    boolean isRemoved();

    ChannelHandlerContext fireChannelRegistered();

    ChannelHandlerContext fireChannelUnregistered();

    ChannelHandlerContext fireChannelActive();

    ChannelHandlerContext fireChannelInactive();

    ChannelHandlerContext fireChannelRead(Object msg);

    ChannelHandlerContext fireChannelReadComplete();

    ChannelHandlerContext fireUserEventTriggered(Object evt);

    ChannelHandlerContext fireChannelWritabilityChanged();

    ChannelHandlerContext fireExceptionCaught(Throwable cause);

    @Override
    ChannelHandlerContext read();

    @Override
    ChannelHandlerContext flush();
}
