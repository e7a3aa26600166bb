package io.rill.channel;

import java.util.List;
import java.util.Map;

import io.rill.util.concurrent.EventExecutorGroup;

/**
 * The chain of {@link ChannelHandler}s of one {@link Channel}, created with the channel.
 *
 * <pre>
 *   transport ──► head ──► h1 ──► h2 ──► ... ──► tail ──► (unhandled: released, logged)
 *   inbound events flow left to right; outbound operations right to left:
 *   transport ◄── head ◄── h1 ◄── h2 ◄── ... ◄── tail ◄── channel.write(...)
 * </pre>
 *
 * <p>The head hands outbound operations to the transport; the tail releases inbound messages
 * nobody consumed (logging them at debug) and logs exceptions nobody handled at warn.
 *
 * <p>The pipeline may be changed from any thread, also while events flow and from inside a
 * handler's event method: a handler added now receives the events that reach its position
 * after its {@code handlerAdded} ran (on its own executor); a removed handler receives none,
 * and events already passing through it continue to its old neighbours.
 *
 * <p>A {@code null} name asks for a generated one: the handler's simple class name plus
 * {@code #0}, {@code #1} ... (the first free one). Names are unique within a pipeline.
 * Handlers added with an {@link EventExecutorGroup} run on one executor of that group, the
 * same one for every handler of this pipeline bound to that group, so their order holds.
 */
public interface ChannelPipeline extends ChannelOutboundInvoker, Iterable<Map.Entry<String, ChannelHandler>> {

    Channel channel();

    ChannelPipeline addFirst(String name, ChannelHandler handler);

    ChannelPipeline addFirst(EventExecutorGroup group, String name, ChannelHandler handler);

    ChannelPipeline addLast(String name, ChannelHandler handler);

    ChannelPipeline addLast(EventExecutorGroup group, String name, ChannelHandler handler);

    ChannelPipeline addBefore(String baseName, String name, ChannelHandler handler);

    ChannelPipeline addBefore(EventExecutorGroup group, String baseName, String name, ChannelHandler handler);

    ChannelPipeline addAfter(String baseName, String name, ChannelHandler handler);

    ChannelPipeline addAfter(EventExecutorGroup group, String baseName, String name, ChannelHandler handler);

    /** Adds each handler at the front, under generated names; the first argument ends up first. */
    ChannelPipeline addFirst(ChannelHandler... handlers);

    /** Adds each handler at the end, under generated names, in argument order. */
    ChannelPipeline addLast(ChannelHandler... handlers);

    /** Like {@link #addLast(ChannelHandler...)}, every handler bound to {@code group}. */
    ChannelPipeline addLast(EventExecutorGroup group, ChannelHandler... handlers);

    /** Removes {@code handler}; throws {@link java.util.NoSuchElementException} if it is not here. */
    ChannelPipeline remove(ChannelHandler handler);

    /** Removes the handler named {@code name} and returns it. */
    ChannelHandler remove(String name);

    /** Removes the first handler of {@code handlerType} and returns it. */
    <T extends ChannelHandler> T remove(Class<T> handlerType);

    /** Removes the first handler; null if there is none. */
    ChannelHandler removeFirst();

    /** Removes the last handler; null if there is none. */
    ChannelHandler removeLast();

    /** Puts {@code newHandler} in {@code oldHandler}'s place. */
    ChannelPipeline replace(ChannelHandler oldHandler, String newName, ChannelHandler newHandler);

    /** Puts {@code newHandler} in place of the handler named {@code oldName}; returns the old handler. */
    ChannelHandler replace(String oldName, String newName, ChannelHandler newHandler);

    /** Puts {@code newHandler} in place of the first handler of {@code oldHandlerType}; returns the old one. */
    <T extends ChannelHandler> T replace(Class<T> oldHandlerType, String newName, ChannelHandler newHandler);

    /** The first handler, or null. */
    ChannelHandler first();

    /** The last handler, or null. */
    ChannelHandler last();

    ChannelHandlerContext firstContext();

    ChannelHandlerContext lastContext();

    /** The handler named {@code name}, or null. */
    ChannelHandler get(String name);

    /** The first handler of {@code handlerType}, or null. */
    <T extends ChannelHandler> T get(Class<T> handlerType);

    /** The context of the handler named {@code name}, or null. */
    ChannelHandlerContext context(String name);

    /** The context of {@code handler}, or null. */
    ChannelHandlerContext context(ChannelHandler handler);

    /** The context of the first handler of {@code handlerType}, or null. */
    ChannelHandlerContext context(Class<? extends ChannelHandler> handlerType);

    /** Handler names from head to tail. */
    List<String> names();

    /** A snapshot of the handlers from head to tail, keyed by name. */
    Map<String, ChannelHandler> toMap();

    ChannelPipeline fireChannelRegistered();

    ChannelPipeline fireChannelUnregistered();

    ChannelPipeline fireChannelActive();

    ChannelPipeline fireChannelInactive();

    ChannelPipeline fireChannelRead(Object msg);

    ChannelPipeline fireChannelReadComplete();

    ChannelPipeline fireUserEventTriggered(Object evt);

    ChannelPipeline fireChannelWritabilityChanged();

    ChannelPipeline fireExceptionCaught(Throwable cause);

    @Override
    ChannelPipeline read();

    @Override
    ChannelPipeline flush();
}
