package io.rill.channel;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;

import io.rill.util.InternalLogger;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.EventExecutorGroup;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * The {@link ChannelPipeline} of every {@link AbstractChannel}: a doubly linked list of
 * {@link HandlerContext}s between a fixed head (which hands outbound operations to the
 * channel's transport methods) and a fixed tail (which disposes of unhandled inbound events).
 *
 * <p>Structure changes take this pipeline's lock, link or unlink under it, and run
 * {@code handlerAdded}/{@code handlerRemoved} after releasing it, on the handler's executor.
 * Event dispatch takes no lock: it follows the volatile links.
 */
final class LinkedPipeline implements ChannelPipeline {

    private static final InternalLogger LOG = InternalLogger.get(LinkedPipeline.class);

    /**
     * Per handler class, "SimpleName#" and the first generated name "SimpleName#0": the first is
     * almost always free, and sharing its one String saves every connection ~56 bytes.
     */
    private static final ClassValue<String[]> NAMES = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
            String simple = type.getSimpleName();
            if (simple.isEmpty()) {
                String full = type.getName();
                simple = full.substring(full.lastIndexOf('.') + 1);
            }
            return new String[] {simple + '#', simple + "#0"};
        }
    };

    private final AbstractChannel channel;
    final HandlerContext head;
    final HandlerContext tail;
    private final VoidChannelPromise voidPromise;
    /** One child executor per group, so handlers bound to the same group keep their relative order; guarded by this. */
    private Map<EventExecutorGroup, EventExecutor> childExecutors;

    LinkedPipeline(AbstractChannel channel) {
        this.channel = channel;
        this.voidPromise = new VoidChannelPromise(channel);
        this.head = new HandlerContext(this, channel.eventLoop(), "HEAD", new PipelineHead(channel));
        this.tail = new HandlerContext(this, channel.eventLoop(), "TAIL", new PipelineTail(channel));
        head.next = tail;
        tail.prev = head;
        EventRoutes.recompute(head, null, null);
        // Their handlerAdded is the no-op default; this just marks them ready.
        head.callHandlerAdded();
        tail.callHandlerAdded();
    }

    @Override
    public Channel channel() {
        return channel;
    }

    // ---------------------------------------------------------------- adding

    @Override
    public ChannelPipeline addFirst(String name, ChannelHandler handler) {
        return addFirst(null, name, handler);
    }

    @Override
    public ChannelPipeline addFirst(EventExecutorGroup group, String name, ChannelHandler handler) {
        HandlerContext ctx;
        synchronized (this) {
            ctx = newContext(group, name, handler);
            linkAfter(head, ctx);
            EventRoutes.recompute(head, ctx, null);
        }
        announceAdded(ctx);
        return this;
    }

    @Override
    public ChannelPipeline addLast(String name, ChannelHandler handler) {
        return addLast(null, name, handler);
    }

    @Override
    public ChannelPipeline addLast(EventExecutorGroup group, String name, ChannelHandler handler) {
        HandlerContext ctx;
        synchronized (this) {
            ctx = newContext(group, name, handler);
            linkAfter(tail.prev, ctx);
            EventRoutes.recompute(head, ctx, null);
        }
        announceAdded(ctx);
        return this;
    }

    @Override
    public ChannelPipeline addBefore(String baseName, String name, ChannelHandler handler) {
        return addBefore(null, baseName, name, handler);
    }

    @Override
    public ChannelPipeline addBefore(EventExecutorGroup group, String baseName, String name, ChannelHandler handler) {
        HandlerContext ctx;
        synchronized (this) {
            HandlerContext base = existing(baseName);
            ctx = newContext(group, name, handler);
            linkAfter(base.prev, ctx);
            EventRoutes.recompute(head, ctx, null);
        }
        announceAdded(ctx);
        return this;
    }

    @Override
    public ChannelPipeline addAfter(String baseName, String name, ChannelHandler handler) {
        return addAfter(null, baseName, name, handler);
    }

    @Override
    public ChannelPipeline addAfter(EventExecutorGroup group, String baseName, String name, ChannelHandler handler) {
        HandlerContext ctx;
        synchronized (this) {
            HandlerContext base = existing(baseName);
            ctx = newContext(group, name, handler);
            linkAfter(base, ctx);
            EventRoutes.recompute(head, ctx, null);
        }
        announceAdded(ctx);
        return this;
    }

    @Override
    public ChannelPipeline addFirst(ChannelHandler... handlers) {
        for (int i = handlers.length - 1; i >= 0; i--) {
            addFirst(null, null, handlers[i]);
        }
        return this;
    }

    @Override
    public ChannelPipeline addLast(ChannelHandler... handlers) {
        return addLast(null, handlers);
    }

    @Override
    public ChannelPipeline addLast(EventExecutorGroup group, ChannelHandler... handlers) {
        for (ChannelHandler h : handlers) {
            addLast(group, null, h);
        }
        return this;
    }

    /** Validates and claims the handler, picks its name and executor. Caller holds the lock. */
    private HandlerContext newContext(EventExecutorGroup group, String name, ChannelHandler handler) {
        Objects.requireNonNull(handler, "handler");
        if (name == null) {
            name = generateName(handler);
        } else if (find(name) != null) {
            throw new ChannelPipelineException("duplicate handler name '" + name + "' in " + channel);
        }
        SharableCheck.claim(handler);
        return new HandlerContext(this, executorFor(group), name, handler);
    }

    private String generateName(ChannelHandler handler) {
        String[] names = NAMES.get(handler.getClass());
        for (int i = 0; ; i++) {
            String candidate = i == 0 ? names[1] : names[0] + i;
            if (find(candidate) == null) {
                return candidate;
            }
        }
    }

    private EventExecutor executorFor(EventExecutorGroup group) {
        if (group == null) {
            return channel.eventLoop();
        }
        if (childExecutors == null) {
            childExecutors = new IdentityHashMap<>(4);
        }
        return childExecutors.computeIfAbsent(group, EventExecutorGroup::next);
    }

    private static void linkAfter(HandlerContext prev, HandlerContext ctx) {
        HandlerContext next = prev.next;
        ctx.prev = prev;
        ctx.next = next;
        // Publish the fully linked context last: readers walking forward see it only once complete.
        next.prev = ctx;
        prev.next = ctx;
    }

    /** Runs handlerAdded on the handler's executor: now if we are on it, else as its next task. */
    private void announceAdded(HandlerContext ctx) {
        EventExecutor executor = ctx.executor();
        if (executor.inEventLoop()) {
            ctx.callHandlerAdded();
            return;
        }
        try {
            executor.execute(ctx::callHandlerAdded);
        } catch (Throwable t) {
            synchronized (this) {
                unlink(ctx);
            }
            SharableCheck.release(ctx.handler());
            throw new ChannelPipelineException("cannot run handlerAdded of '" + ctx.name() + "' on " + executor, t);
        }
    }

    /** handlerAdded threw: take the handler out again and tell the pipeline. */
    void handlerAddedFailed(HandlerContext ctx, Throwable cause) {
        boolean removed = false;
        synchronized (this) {
            if (!ctx.unlinked) {
                unlink(ctx);
                removed = true;
            }
        }
        if (removed) {
            ctx.callHandlerRemoved();
        }
        fireExceptionCaught(new ChannelPipelineException(ctx.handler().getClass().getName()
                + ".handlerAdded() threw, so the handler was removed again", cause));
    }

    // ---------------------------------------------------------------- removing and replacing

    @Override
    public ChannelPipeline remove(ChannelHandler handler) {
        remove(existing(handler));
        return this;
    }

    @Override
    public ChannelHandler remove(String name) {
        return remove(existing(name)).handler();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends ChannelHandler> T remove(Class<T> handlerType) {
        return (T) remove(existing(handlerType)).handler();
    }

    @Override
    public ChannelHandler removeFirst() {
        HandlerContext first = head.next;
        return first == tail ? null : remove(first).handler();
    }

    @Override
    public ChannelHandler removeLast() {
        HandlerContext last = tail.prev;
        return last == head ? null : remove(last).handler();
    }

    private HandlerContext remove(HandlerContext ctx) {
        synchronized (this) {
            if (ctx.unlinked) {
                throw new NoSuchElementException("handler '" + ctx.name() + "' was removed already");
            }
            unlink(ctx);
        }
        announceRemoved(ctx);
        return ctx;
    }

    /**
     * Takes {@code ctx} out of the list and reroutes the others around it. Its own links and
     * routes stay as they were, so an event already on its way through it still gets on.
     * Caller holds the lock.
     */
    private void unlink(HandlerContext ctx) {
        detach(ctx);
        EventRoutes.recompute(head, null, null);
    }

    private static void detach(HandlerContext ctx) {
        HandlerContext prev = ctx.prev;
        HandlerContext next = ctx.next;
        prev.next = next;
        next.prev = prev;
        ctx.unlinked = true;
    }

    private void announceRemoved(HandlerContext ctx) {
        EventExecutor executor = ctx.executor();
        if (executor.inEventLoop()) {
            ctx.callHandlerRemoved();
            return;
        }
        try {
            executor.execute(ctx::callHandlerRemoved);
        } catch (Throwable t) {
            // The executor is gone, so nothing can run there any more: finish on this thread.
            LOG.warn("Could not run handlerRemoved of '" + ctx.name() + "' on " + executor + "; running it here", t);
            ctx.callHandlerRemoved();
        }
    }

    @Override
    public ChannelPipeline replace(ChannelHandler oldHandler, String newName, ChannelHandler newHandler) {
        replace(existing(oldHandler), newName, newHandler);
        return this;
    }

    @Override
    public ChannelHandler replace(String oldName, String newName, ChannelHandler newHandler) {
        return replace(existing(oldName), newName, newHandler);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends ChannelHandler> T replace(Class<T> oldHandlerType, String newName, ChannelHandler newHandler) {
        return (T) replace(existing(oldHandlerType), newName, newHandler);
    }

    private ChannelHandler replace(HandlerContext old, String newName, ChannelHandler newHandler) {
        HandlerContext ctx;
        synchronized (this) {
            if (old.unlinked) {
                throw new NoSuchElementException("handler '" + old.name() + "' was removed already");
            }
            // The new handler may reuse the old one's name, so check names with the old one out of the way.
            boolean reusesName = newName != null && newName.equals(old.name());
            ctx = reusesName ? new HandlerContext(this, executorFor(null), newName, claimed(newHandler))
                    : newContext(null, newName, newHandler);
            linkAfter(old, ctx);
            detach(old);
            // Events still passing through the old context continue into its replacement.
            old.prev = ctx;
            old.next = ctx;
            EventRoutes.recompute(head, ctx, old);
        }
        announceAdded(ctx);
        announceRemoved(old);
        return old.handler();
    }

    private static ChannelHandler claimed(ChannelHandler handler) {
        SharableCheck.claim(Objects.requireNonNull(handler, "newHandler"));
        return handler;
    }

    /** Removes every handler, tail side first; the channel calls it once it is closed and deregistered. */
    void destroy() {
        for (;;) {
            HandlerContext last;
            synchronized (this) {
                last = tail.prev;
                if (last == head) {
                    return;
                }
                unlink(last);
            }
            announceRemoved(last);
        }
    }

    // ---------------------------------------------------------------- lookup

    /** The linked context named {@code name}, or null. */
    private HandlerContext find(String name) {
        for (HandlerContext c = head.next; c != tail; c = c.next) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private HandlerContext existing(String name) {
        HandlerContext ctx = find(Objects.requireNonNull(name, "name"));
        if (ctx == null) {
            throw new NoSuchElementException("no handler named '" + name + "' in " + names());
        }
        return ctx;
    }

    private HandlerContext existing(ChannelHandler handler) {
        HandlerContext ctx = (HandlerContext) context(Objects.requireNonNull(handler, "handler"));
        if (ctx == null) {
            throw new NoSuchElementException(handler.getClass().getName() + " is not in " + names());
        }
        return ctx;
    }

    private HandlerContext existing(Class<? extends ChannelHandler> type) {
        HandlerContext ctx = (HandlerContext) context(Objects.requireNonNull(type, "handlerType"));
        if (ctx == null) {
            throw new NoSuchElementException("no " + type.getName() + " in " + names());
        }
        return ctx;
    }

    @Override
    public ChannelHandler first() {
        HandlerContext c = head.next;
        return c == tail ? null : c.handler();
    }

    @Override
    public ChannelHandler last() {
        HandlerContext c = tail.prev;
        return c == head ? null : c.handler();
    }

    @Override
    public ChannelHandlerContext firstContext() {
        HandlerContext c = head.next;
        return c == tail ? null : c;
    }

    @Override
    public ChannelHandlerContext lastContext() {
        HandlerContext c = tail.prev;
        return c == head ? null : c;
    }

    @Override
    public ChannelHandler get(String name) {
        ChannelHandlerContext ctx = context(name);
        return ctx == null ? null : ctx.handler();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends ChannelHandler> T get(Class<T> handlerType) {
        ChannelHandlerContext ctx = context(handlerType);
        return ctx == null ? null : (T) ctx.handler();
    }

    @Override
    public ChannelHandlerContext context(String name) {
        return find(Objects.requireNonNull(name, "name"));
    }

    @Override
    public ChannelHandlerContext context(ChannelHandler handler) {
        for (HandlerContext c = head.next; c != tail; c = c.next) {
            if (c.handler() == handler) {
                return c;
            }
        }
        return null;
    }

    @Override
    public ChannelHandlerContext context(Class<? extends ChannelHandler> handlerType) {
        for (HandlerContext c = head.next; c != tail; c = c.next) {
            if (handlerType.isInstance(c.handler())) {
                return c;
            }
        }
        return null;
    }

    @Override
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (HandlerContext c = head.next; c != tail; c = c.next) {
            names.add(c.name());
        }
        return names;
    }

    @Override
    public Map<String, ChannelHandler> toMap() {
        Map<String, ChannelHandler> map = new LinkedHashMap<>();
        for (HandlerContext c = head.next; c != tail; c = c.next) {
            map.put(c.name(), c.handler());
        }
        return map;
    }

    @Override
    public Iterator<Map.Entry<String, ChannelHandler>> iterator() {
        return toMap().entrySet().iterator();
    }

    // ---------------------------------------------------------------- inbound: start at the head

    // The head handles only channelActive and channelReadComplete; other events start past it.

    @Override
    public ChannelPipeline fireChannelRegistered() {
        head.fireChannelRegistered();
        return this;
    }

    @Override
    public ChannelPipeline fireChannelUnregistered() {
        head.fireChannelUnregistered();
        return this;
    }

    @Override
    public ChannelPipeline fireChannelActive() {
        HandlerContext.invokeChannelActive(head);
        return this;
    }

    @Override
    public ChannelPipeline fireChannelInactive() {
        head.fireChannelInactive();
        return this;
    }

    @Override
    public ChannelPipeline fireChannelRead(Object msg) {
        head.fireChannelRead(msg);
        return this;
    }

    @Override
    public ChannelPipeline fireChannelReadComplete() {
        HandlerContext.invokeChannelReadComplete(head);
        return this;
    }

    @Override
    public ChannelPipeline fireUserEventTriggered(Object evt) {
        head.fireUserEventTriggered(evt);
        return this;
    }

    @Override
    public ChannelPipeline fireChannelWritabilityChanged() {
        HandlerContext.invokeChannelWritabilityChanged(head); // the head pauses or resumes reading first
        return this;
    }

    @Override
    public ChannelPipeline fireExceptionCaught(Throwable cause) {
        head.fireExceptionCaught(cause);
        return this;
    }

    // ---------------------------------------------------------------- outbound: start at the tail

    @Override
    public Future<Void> bind(SocketAddress localAddress) {
        return tail.bind(localAddress);
    }

    @Override
    public Future<Void> bind(SocketAddress localAddress, Promise<Void> promise) {
        return tail.bind(localAddress, promise);
    }

    @Override
    public Future<Void> connect(SocketAddress remoteAddress) {
        return tail.connect(remoteAddress);
    }

    @Override
    public Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress) {
        return tail.connect(remoteAddress, localAddress);
    }

    @Override
    public Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress, Promise<Void> promise) {
        return tail.connect(remoteAddress, localAddress, promise);
    }

    @Override
    public Future<Void> disconnect() {
        return tail.disconnect();
    }

    @Override
    public Future<Void> disconnect(Promise<Void> promise) {
        return tail.disconnect(promise);
    }

    @Override
    public Future<Void> close() {
        return tail.close();
    }

    @Override
    public Future<Void> close(Promise<Void> promise) {
        return tail.close(promise);
    }

    @Override
    public Future<Void> register() {
        return tail.register();
    }

    @Override
    public Future<Void> register(Promise<Void> promise) {
        return tail.register(promise);
    }

    @Override
    public Future<Void> deregister() {
        return tail.deregister();
    }

    @Override
    public Future<Void> deregister(Promise<Void> promise) {
        return tail.deregister(promise);
    }

    @Override
    public ChannelPipeline read() {
        tail.read();
        return this;
    }

    @Override
    public Future<Void> write(Object msg) {
        return tail.write(msg);
    }

    @Override
    public Future<Void> write(Object msg, Promise<Void> promise) {
        return tail.write(msg, promise);
    }

    @Override
    public ChannelPipeline flush() {
        tail.flush();
        return this;
    }

    @Override
    public Future<Void> writeAndFlush(Object msg) {
        return tail.writeAndFlush(msg);
    }

    @Override
    public Future<Void> writeAndFlush(Object msg, Promise<Void> promise) {
        return tail.writeAndFlush(msg, promise);
    }

    @Override
    public Promise<Void> newPromise() {
        return new DefaultPromise<>(channel.eventLoop());
    }

    @Override
    public Future<Void> newSucceededFuture() {
        return channel.eventLoop().newSucceededFuture(null);
    }

    @Override
    public Future<Void> newFailedFuture(Throwable cause) {
        return channel.eventLoop().newFailedFuture(cause);
    }

    @Override
    public Promise<Void> voidPromise() {
        return voidPromise;
    }

    @Override
    public String toString() {
        return "ChannelPipeline" + names();
    }

    /** Touches the contexts and handlers an event walks; see {@code io.rill.channel.internal.ChannelWarmUp}. */
    int warmUp() {
        HandlerContext[] order = head.routes.order;
        int x = order.length;
        for (HandlerContext ctx : order) {
            x += ctx.handler().getClass().hashCode() & 1;
        }
        return x;
    }
}
