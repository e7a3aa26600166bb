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

    /** {@return the handler's unique name in its pipeline} */
    String name();

    /** {@return the handler this context belongs to} */
    ChannelHandler handler();

    /** {@return the channel of the pipeline} */
    Channel channel();

    /** {@return the pipeline this context is (or was) part of} */
    ChannelPipeline pipeline();

    /**
     * {@return the executor the handler's methods run on: the channel's event loop unless bound to another
     * group}
     */
    EventExecutor executor();

    /** {@return the channel's buffer allocator} */
    ByteBufAllocator alloc();

    /** {@return true once the handler has been removed from the pipeline} */
    boolean isRemoved();

    /**
     * Passes {@code channelRegistered} to the next inbound handler. Call on {@link #executor()}.
     *
     * @return this context
     */
    ChannelHandlerContext fireChannelRegistered();

    /**
     * Passes {@code channelUnregistered} to the next inbound handler. Call on {@link #executor()}.
     *
     * @return this context
     */
    ChannelHandlerContext fireChannelUnregistered();

    /**
     * Passes {@code channelActive} to the next inbound handler. Call on {@link #executor()}.
     *
     * @return this context
     */
    ChannelHandlerContext fireChannelActive();

    /**
     * Passes {@code channelInactive} to the next inbound handler. Call on {@link #executor()}.
     *
     * @return this context
     */
    ChannelHandlerContext fireChannelInactive();

    /**
     * Passes {@code msg} to the next inbound handler, which owns it from now on. Call on {@link #executor()}.
     *
     * @param msg the message; the caller gives up its ownership
     * @return this context
     */
    ChannelHandlerContext fireChannelRead(Object msg);

    /**
     * Passes {@code channelReadComplete} to the next inbound handler. Call on {@link #executor()}.
     *
     * @return this context
     */
    ChannelHandlerContext fireChannelReadComplete();

    /**
     * Passes a user event to the next inbound handler. Call on {@link #executor()}.
     *
     * @param evt the event; a reference-counted one passes like a message
     * @return this context
     */
    ChannelHandlerContext fireUserEventTriggered(Object evt);

    /**
     * Passes {@code channelWritabilityChanged} to the next inbound handler. Call on {@link #executor()}.
     *
     * @return this context
     */
    ChannelHandlerContext fireChannelWritabilityChanged();

    /**
     * Passes {@code cause} to the next handler's {@code exceptionCaught}. Call on {@link #executor()}.
     *
     * @param cause the failure
     * @return this context
     */
    ChannelHandlerContext fireExceptionCaught(Throwable cause);

    @Override
    ChannelHandlerContext read();

    @Override
    ChannelHandlerContext flush();
}
