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

    /** {@return the channel this pipeline belongs to} */
    Channel channel();

    /**
     * Adds {@code handler} at the front. Any thread.
     *
     * @param name a unique name, or null for a generated one
     * @param handler the handler; a non-{@code @Sharable} one may be in one pipeline only
     * @return this pipeline
     * @throws ChannelPipelineException if the name is taken or the handler may not be added
     */
    ChannelPipeline addFirst(String name, ChannelHandler handler);

    /**
     * Adds {@code handler} at the front, running on an executor of {@code group}. Any thread.
     *
     * @param group the executors for the handler, or null for the channel's event loop
     * @param name a unique name, or null for a generated one
     * @param handler the handler
     * @return this pipeline
     */
    ChannelPipeline addFirst(EventExecutorGroup group, String name, ChannelHandler handler);

    /**
     * Adds {@code handler} at the end. Any thread.
     *
     * @param name a unique name, or null for a generated one
     * @param handler the handler; a non-{@code @Sharable} one may be in one pipeline only
     * @return this pipeline
     * @throws ChannelPipelineException if the name is taken or the handler may not be added
     */
    ChannelPipeline addLast(String name, ChannelHandler handler);

    /**
     * Adds {@code handler} at the end, running on an executor of {@code group}. Any thread.
     *
     * @param group the executors for the handler, or null for the channel's event loop
     * @param name a unique name, or null for a generated one
     * @param handler the handler
     * @return this pipeline
     */
    ChannelPipeline addLast(EventExecutorGroup group, String name, ChannelHandler handler);

    /**
     * Adds {@code handler} just before the handler named {@code baseName}. Any thread.
     *
     * @param baseName the name of the handler to insert before
     * @param name a unique name, or null for a generated one
     * @param handler the handler
     * @return this pipeline
     * @throws java.util.NoSuchElementException if there is no handler named {@code baseName}
     */
    ChannelPipeline addBefore(String baseName, String name, ChannelHandler handler);

    /**
     * Adds {@code handler} just before the handler named {@code baseName}, running on an executor of {@code
     * group}.
     *
     * @param group the executors for the handler, or null for the channel's event loop
     * @param baseName the name of the handler to insert before
     * @param name a unique name, or null for a generated one
     * @param handler the handler
     * @return this pipeline
     */
    ChannelPipeline addBefore(EventExecutorGroup group, String baseName, String name, ChannelHandler handler);

    /**
     * Adds {@code handler} just after the handler named {@code baseName}. Any thread.
     *
     * @param baseName the name of the handler to insert after
     * @param name a unique name, or null for a generated one
     * @param handler the handler
     * @return this pipeline
     * @throws java.util.NoSuchElementException if there is no handler named {@code baseName}
     */
    ChannelPipeline addAfter(String baseName, String name, ChannelHandler handler);

    /**
     * Adds {@code handler} just after the handler named {@code baseName}, running on an executor of {@code
     * group}.
     *
     * @param group the executors for the handler, or null for the channel's event loop
     * @param baseName the name of the handler to insert after
     * @param name a unique name, or null for a generated one
     * @param handler the handler
     * @return this pipeline
     */
    ChannelPipeline addAfter(EventExecutorGroup group, String baseName, String name, ChannelHandler handler);

    /**
     * Adds each handler at the front, under generated names; the first argument ends up first.
     *
     * @param handlers the handlers
     * @return this pipeline
     */
    ChannelPipeline addFirst(ChannelHandler... handlers);

    /**
     * Adds each handler at the end, under generated names, in argument order.
     *
     * @param handlers the handlers
     * @return this pipeline
     */
    ChannelPipeline addLast(ChannelHandler... handlers);

    /**
     * Like {@link #addLast(ChannelHandler...)}, every handler bound to {@code group}.
     *
     * @param group the executors for the handlers, or null for the channel's event loop
     * @param handlers the handlers
     * @return this pipeline
     */
    ChannelPipeline addLast(EventExecutorGroup group, ChannelHandler... handlers);

    /**
     * Removes {@code handler}; throws {@link java.util.NoSuchElementException} if it is not here.
     *
     * @param handler the handler to remove
     * @return this pipeline
     */
    ChannelPipeline remove(ChannelHandler handler);

    /**
     * Removes the handler named {@code name} and returns it.
     *
     * @param name the handler's name
     * @return the removed handler
     * @throws java.util.NoSuchElementException if there is none
     */
    ChannelHandler remove(String name);

    /**
     * Removes the first handler of {@code handlerType} and returns it.
     *
     * @param <T> the handler type
     * @param handlerType the handler's class
     * @return the removed handler
     * @throws java.util.NoSuchElementException if there is none
     */
    <T extends ChannelHandler> T remove(Class<T> handlerType);

    /** {@return the removed first handler, or null if there was none} */
    ChannelHandler removeFirst();

    /** {@return the removed last handler, or null if there was none} */
    ChannelHandler removeLast();

    /**
     * Puts {@code newHandler} in {@code oldHandler}'s place.
     *
     * @param oldHandler the handler to replace
     * @param newName the new handler's name, or null for a generated one
     * @param newHandler the new handler
     * @return this pipeline
     */
    ChannelPipeline replace(ChannelHandler oldHandler, String newName, ChannelHandler newHandler);

    /**
     * Puts {@code newHandler} in place of the handler named {@code oldName}; returns the old handler.
     *
     * @param oldName the name of the handler to replace
     * @param newName the new handler's name, or null for a generated one
     * @param newHandler the new handler
     * @return the old handler
     */
    ChannelHandler replace(String oldName, String newName, ChannelHandler newHandler);

    /**
     * Puts {@code newHandler} in place of the first handler of {@code oldHandlerType}; returns the old one.
     *
     * @param <T> the old handler's type
     * @param oldHandlerType the class of the handler to replace
     * @param newName the new handler's name, or null for a generated one
     * @param newHandler the new handler
     * @return the old handler
     */
    <T extends ChannelHandler> T replace(Class<T> oldHandlerType, String newName, ChannelHandler newHandler);

    /** {@return the first handler, or null} */
    ChannelHandler first();

    /** {@return the last handler, or null} */
    ChannelHandler last();

    /** {@return the context of the first handler, or null} */
    ChannelHandlerContext firstContext();

    /** {@return the context of the last handler, or null} */
    ChannelHandlerContext lastContext();

    /**
     * {@return the handler named {@code name}, or null}
     *
     * @param name the handler's name
     */
    ChannelHandler get(String name);

    /**
     * {@return the first handler of {@code handlerType}, or null}
     *
     * @param <T> the handler type
     * @param handlerType the handler's class
     */
    <T extends ChannelHandler> T get(Class<T> handlerType);

    /**
     * {@return the context of the handler named {@code name}, or null}
     *
     * @param name the handler's name
     */
    ChannelHandlerContext context(String name);

    /**
     * {@return the context of {@code handler}, or null}
     *
     * @param handler the handler
     */
    ChannelHandlerContext context(ChannelHandler handler);

    /**
     * {@return the context of the first handler of {@code handlerType}, or null}
     *
     * @param handlerType the handler's class
     */
    ChannelHandlerContext context(Class<? extends ChannelHandler> handlerType);

    /** {@return the handler names from head to tail} */
    List<String> names();

    /** {@return a snapshot of the handlers from head to tail, keyed by name} */
    Map<String, ChannelHandler> toMap();

    /**
     * Fires {@code channelRegistered} from the head. Transports call these; any thread, the event runs on the
     * handlers' executors.
     *
     * @return this pipeline
     */
    ChannelPipeline fireChannelRegistered();

    /**
     * Fires {@code channelUnregistered} from the head.
     *
     * @return this pipeline
     */
    ChannelPipeline fireChannelUnregistered();

    /**
     * Fires {@code channelActive} from the head.
     *
     * @return this pipeline
     */
    ChannelPipeline fireChannelActive();

    /**
     * Fires {@code channelInactive} from the head.
     *
     * @return this pipeline
     */
    ChannelPipeline fireChannelInactive();

    /**
     * Fires {@code channelRead} from the head.
     *
     * @param msg the message; ownership passes to the first handler
     * @return this pipeline
     */
    ChannelPipeline fireChannelRead(Object msg);

    /**
     * Fires {@code channelReadComplete} from the head.
     *
     * @return this pipeline
     */
    ChannelPipeline fireChannelReadComplete();

    /**
     * Fires a user event from the head.
     *
     * @param evt the event; a reference-counted one passes like a message
     * @return this pipeline
     */
    ChannelPipeline fireUserEventTriggered(Object evt);

    /**
     * Fires {@code channelWritabilityChanged} from the head.
     *
     * @return this pipeline
     */
    ChannelPipeline fireChannelWritabilityChanged();

    /**
     * Fires {@code exceptionCaught} from the head.
     *
     * @param cause the failure
     * @return this pipeline
     */
    ChannelPipeline fireExceptionCaught(Throwable cause);

    @Override
    ChannelPipeline read();

    @Override
    ChannelPipeline flush();
}
