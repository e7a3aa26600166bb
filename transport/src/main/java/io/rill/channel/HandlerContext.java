package io.rill.channel;

import java.net.SocketAddress;
import java.util.Objects;

import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.util.InternalLogger;
import io.rill.util.ResourceLeakDetector;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * One node of a {@link LinkedPipeline}: a handler, its name, its executor and its links.
 *
 * <p>Dispatch: an event goes to the next context in its direction whose handler overrides the
 * method ({@link ChannelHandlerMask}); others are skipped, but only while they share the
 * current executor, since hopping over a context on another executor would let an event
 * overtake earlier ones queued there. That target is precomputed per event in {@link #routes}.
 * The event runs at once on the target's executor thread, else as a task queued there.
 *
 * <p>Life cycle: ADD_PENDING until {@code handlerAdded} ran on the executor, then ADDED, then
 * REMOVED. An event reaching a pending context first runs {@code handlerAdded} (on the right
 * thread, as events run on the context's executor), so no event precedes it; a removed
 * context forwards events without calling its handler.
 */
final class HandlerContext implements ChannelHandlerContext {

    private static final InternalLogger LOG = InternalLogger.get(HandlerContext.class);

    private static final int ADD_PENDING = 0;
    private static final int ADDED = 1;
    private static final int REMOVED = 2;

    /** Neighbour towards the tail; kept after removal so events in flight find their way on. */
    volatile HandlerContext next;
    /** Neighbour towards the head; kept after removal, like {@link #next}. */
    volatile HandlerContext prev;
    /** Where each event goes next ({@link EventRoutes}); replaced whole under the pipeline's lock. */
    volatile EventRoutes routes;
    /** This context's position in {@link #routes}, written just before it; checked there, since a reader may race. */
    int routePosition;
    /** True once unlinked from the list; guarded by the pipeline's lock. */
    boolean unlinked;

    private final LinkedPipeline pipeline;
    private final String name;
    private final ChannelHandler handler;
    /** Fixed at construction: the channel's event loop, or the child executor of the group it was added with. */
    private final EventExecutor executor;
    /** The {@link ChannelHandlerMask} bits of the handler's class. */
    final int executionMask;
    /** ADD_PENDING → ADDED → REMOVED; written only on {@link #executor}. */
    private volatile int state;

    HandlerContext(LinkedPipeline pipeline, EventExecutor executor, String name, ChannelHandler handler) {
        this.pipeline = pipeline;
        this.executor = executor;
        this.name = name;
        this.handler = handler;
        this.executionMask = ChannelHandlerMask.of(handler.getClass());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ChannelHandler handler() {
        return handler;
    }

    @Override
    public Channel channel() {
        return pipeline.channel();
    }

    @Override
    public ChannelPipeline pipeline() {
        return pipeline;
    }

    @Override
    public EventExecutor executor() {
        return executor;
    }

    @Override
    public ByteBufAllocator alloc() {
        return pipeline.channel().config().getAllocator();
    }

    @Override
    public boolean isRemoved() {
        return state == REMOVED;
    }

    /** Runs handlerAdded once, on the executor; a failure removes the handler again. */
    void callHandlerAdded() {
        if (state != ADD_PENDING) {
            return;
        }
        state = ADDED;
        try {
            handler.handlerAdded(this);
        } catch (Throwable t) {
            pipeline.handlerAddedFailed(this, t);
        }
    }

    /** Runs handlerRemoved once, on the executor, if handlerAdded ran; never throws. */
    void callHandlerRemoved() {
        int was = state;
        if (was == REMOVED) {
            return;
        }
        state = REMOVED;
        try {
            if (was == ADDED) {
                handler.handlerRemoved(this);
            }
        } catch (Throwable t) {
            pipeline.fireExceptionCaught(new ChannelPipelineException(
                    handler.getClass().getName() + ".handlerRemoved() threw", t));
        } finally {
            SharableCheck.release(handler);
        }
    }

    /** True if the handler may be called now; runs a pending handlerAdded first. */
    private boolean ready() {
        int s = state;
        if (s == ADDED) {
            return true;
        }
        if (s == ADD_PENDING) {
            callHandlerAdded();
            return state == ADDED;
        }
        return false;
    }

    /** The next context for the inbound event {@code bit}: a table lookup, see {@link EventRoutes}. */
    private HandlerContext findInbound(int bit) {
        return route(EventRoutes.slot(bit));
    }

    /** The next context for the outbound operation {@code bit}. */
    private HandlerContext findOutbound(int bit) {
        return route(EventRoutes.slot(bit));
    }

    /** The next context for an event slot of {@link EventRoutes}, or null past the end of the pipeline. */
    HandlerContext route(int slot) {
        return routes.target(this, routePosition, slot);
    }

    /** Queues {@code task} on {@code target}; a refusal fails {@code promise} (or is logged) and releases {@code msg}. */
    private static void runOn(HandlerContext target, Runnable task, Promise<Void> promise, Object msg) {
        try {
            target.executor.execute(task);
        } catch (Throwable t) {
            ReferenceCountUtil.safeRelease(msg);
            if (promise == null || !promise.tryFailure(t)) {
                LOG.warn("Could not hand an event to " + target.executor + " for handler '" + target.name + "'", t);
            }
        }
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public ChannelHandlerContext fireChannelRegistered() {
        invokeChannelRegistered(findInbound(ChannelHandlerMask.REGISTERED));
        return this;
    }

    static void invokeChannelRegistered(HandlerContext ctx) {
        if (ctx.executor.inEventLoop()) {
            ctx.invokeChannelRegistered();
        } else {
            runOn(ctx, ctx::invokeChannelRegistered, null, null);
        }
    }

    private void invokeChannelRegistered() {
        if (!ready()) {
            fireChannelRegistered();
            return;
        }
        try {
            handler.channelRegistered(this);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public ChannelHandlerContext fireChannelUnregistered() {
        invokeChannelUnregistered(findInbound(ChannelHandlerMask.UNREGISTERED));
        return this;
    }

    static void invokeChannelUnregistered(HandlerContext ctx) {
        if (ctx.executor.inEventLoop()) {
            ctx.invokeChannelUnregistered();
        } else {
            runOn(ctx, ctx::invokeChannelUnregistered, null, null);
        }
    }

    private void invokeChannelUnregistered() {
        if (!ready()) {
            fireChannelUnregistered();
            return;
        }
        try {
            handler.channelUnregistered(this);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public ChannelHandlerContext fireChannelActive() {
        invokeChannelActive(findInbound(ChannelHandlerMask.ACTIVE));
        return this;
    }

    static void invokeChannelActive(HandlerContext ctx) {
        if (ctx.executor.inEventLoop()) {
            ctx.invokeChannelActive();
        } else {
            runOn(ctx, ctx::invokeChannelActive, null, null);
        }
    }

    private void invokeChannelActive() {
        if (!ready()) {
            fireChannelActive();
            return;
        }
        try {
            handler.channelActive(this);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public ChannelHandlerContext fireChannelInactive() {
        invokeChannelInactive(findInbound(ChannelHandlerMask.INACTIVE));
        return this;
    }

    static void invokeChannelInactive(HandlerContext ctx) {
        if (ctx.executor.inEventLoop()) {
            ctx.invokeChannelInactive();
        } else {
            runOn(ctx, ctx::invokeChannelInactive, null, null);
        }
    }

    private void invokeChannelInactive() {
        if (!ready()) {
            fireChannelInactive();
            return;
        }
        try {
            handler.channelInactive(this);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public ChannelHandlerContext fireChannelRead(Object msg) {
        invokeChannelRead(findInbound(ChannelHandlerMask.CHANNEL_READ), msg);
        return this;
    }

    static void invokeChannelRead(HandlerContext ctx, Object msg) {
        Objects.requireNonNull(msg, "msg");
        if (ResourceLeakDetector.recordsAccesses()) {
            ReferenceCountUtil.touch(msg, ctx); // each hop is one access record of a tracked buffer
        }
        if (ctx.executor.inEventLoop()) {
            ctx.invokeChannelRead(msg);
        } else {
            runOn(ctx, () -> ctx.invokeChannelRead(msg), null, msg);
        }
    }

    private void invokeChannelRead(Object msg) {
        if (!ready()) {
            fireChannelRead(msg);
            return;
        }
        try {
            handler.channelRead(this, msg);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public ChannelHandlerContext fireChannelReadComplete() {
        invokeChannelReadComplete(findInbound(ChannelHandlerMask.READ_COMPLETE));
        return this;
    }

    static void invokeChannelReadComplete(HandlerContext ctx) {
        if (ctx.executor.inEventLoop()) {
            ctx.invokeChannelReadComplete();
        } else {
            runOn(ctx, ctx::invokeChannelReadComplete, null, null);
        }
    }

    private void invokeChannelReadComplete() {
        if (!ready()) {
            fireChannelReadComplete();
            return;
        }
        try {
            handler.channelReadComplete(this);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public ChannelHandlerContext fireUserEventTriggered(Object evt) {
        invokeUserEventTriggered(findInbound(ChannelHandlerMask.USER_EVENT), evt);
        return this;
    }

    static void invokeUserEventTriggered(HandlerContext ctx, Object evt) {
        Objects.requireNonNull(evt, "evt");
        if (ctx.executor.inEventLoop()) {
            ctx.invokeUserEventTriggered(evt);
        } else {
            runOn(ctx, () -> ctx.invokeUserEventTriggered(evt), null, evt);
        }
    }

    private void invokeUserEventTriggered(Object evt) {
        if (!ready()) {
            fireUserEventTriggered(evt);
            return;
        }
        try {
            handler.userEventTriggered(this, evt);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public ChannelHandlerContext fireChannelWritabilityChanged() {
        invokeChannelWritabilityChanged(findInbound(ChannelHandlerMask.WRITABILITY_CHANGED));
        return this;
    }

    static void invokeChannelWritabilityChanged(HandlerContext ctx) {
        if (ctx.executor.inEventLoop()) {
            ctx.invokeChannelWritabilityChanged();
        } else {
            runOn(ctx, ctx::invokeChannelWritabilityChanged, null, null);
        }
    }

    private void invokeChannelWritabilityChanged() {
        if (!ready()) {
            fireChannelWritabilityChanged();
            return;
        }
        try {
            handler.channelWritabilityChanged(this);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public ChannelHandlerContext fireExceptionCaught(Throwable cause) {
        invokeExceptionCaught(findInbound(ChannelHandlerMask.EXCEPTION_CAUGHT), cause);
        return this;
    }

    static void invokeExceptionCaught(HandlerContext ctx, Throwable cause) {
        Objects.requireNonNull(cause, "cause");
        if (ctx.executor.inEventLoop()) {
            ctx.invokeExceptionCaught(cause);
        } else {
            runOn(ctx, () -> ctx.invokeExceptionCaught(cause), null, null);
        }
    }

    /** Hands {@code cause} to this context's own handler: the one whose method threw gets to handle it. */
    private void invokeExceptionCaught(Throwable cause) {
        if (cause instanceof OutOfMemoryError oom) {
            ResourceExhaustion.closeFor(channel(), oom);
        }
        if (!ready()) {
            fireExceptionCaught(cause);
            return;
        }
        try {
            handler.exceptionCaught(this, cause);
        } catch (Throwable t) {
            // Feeding it back in would loop; the original cause travels as a suppressed exception
            // (unless the handler rethrew the cause itself, which cannot suppress itself).
            if (t != cause) {
                t.addSuppressed(cause);
            }
            LOG.warn("exceptionCaught() of handler '" + name + "' threw while handling another exception", t);
        }
    }

    // ---------------------------------------------------------------- outbound

    /** False (and nothing to do) if the promise was cancelled already; throws if it is otherwise unusable. */
    private static boolean validPromise(Promise<Void> promise) {
        Objects.requireNonNull(promise, "promise");
        if (promise.isDone()) {
            if (promise.isCancelled()) {
                return false;
            }
            throw new IllegalArgumentException("promise already completed: " + promise);
        }
        return true;
    }

    /** This context's handler threw: its promise carries the failure (a void promise turns it into exceptionCaught). */
    private void failOutbound(Promise<Void> promise, Throwable cause) {
        if (cause instanceof OutOfMemoryError oom) {
            ResourceExhaustion.closeFor(channel(), oom);
        }
        if (!promise.tryFailure(cause) && !(promise instanceof VoidChannelPromise)) {
            LOG.warn("Handler '" + name + "' threw after completing its promise " + promise, cause);
        }
    }

    @Override
    public Future<Void> bind(SocketAddress localAddress) {
        return bind(localAddress, newPromise());
    }

    @Override
    public Future<Void> bind(SocketAddress localAddress, Promise<Void> promise) {
        Objects.requireNonNull(localAddress, "localAddress");
        if (!validPromise(promise)) {
            return promise;
        }
        HandlerContext ctx = findOutbound(ChannelHandlerMask.BIND);
        if (ctx.executor.inEventLoop()) {
            ctx.invokeBind(localAddress, promise);
        } else {
            runOn(ctx, () -> ctx.invokeBind(localAddress, promise), promise, null);
        }
        return promise;
    }

    private void invokeBind(SocketAddress localAddress, Promise<Void> promise) {
        if (!ready()) {
            bind(localAddress, promise);
            return;
        }
        try {
            handler.bind(this, localAddress, promise);
        } catch (Throwable t) {
            failOutbound(promise, t);
        }
    }

    @Override
    public Future<Void> connect(SocketAddress remoteAddress) {
        return connect(remoteAddress, null, newPromise());
    }

    @Override
    public Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress) {
        return connect(remoteAddress, localAddress, newPromise());
    }

    @Override
    public Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress, Promise<Void> promise) {
        Objects.requireNonNull(remoteAddress, "remoteAddress");
        if (!validPromise(promise)) {
            return promise;
        }
        HandlerContext ctx = findOutbound(ChannelHandlerMask.CONNECT);
        if (ctx.executor.inEventLoop()) {
            ctx.invokeConnect(remoteAddress, localAddress, promise);
        } else {
            runOn(ctx, () -> ctx.invokeConnect(remoteAddress, localAddress, promise), promise, null);
        }
        return promise;
    }

    private void invokeConnect(SocketAddress remoteAddress, SocketAddress localAddress, Promise<Void> promise) {
        if (!ready()) {
            connect(remoteAddress, localAddress, promise);
            return;
        }
        try {
            handler.connect(this, remoteAddress, localAddress, promise);
        } catch (Throwable t) {
            failOutbound(promise, t);
        }
    }

    @Override
    public Future<Void> disconnect() {
        return disconnect(newPromise());
    }

    @Override
    public Future<Void> disconnect(Promise<Void> promise) {
        return lifecycleOp(ChannelHandlerMask.DISCONNECT, promise);
    }

    @Override
    public Future<Void> close() {
        return close(newPromise());
    }

    @Override
    public Future<Void> close(Promise<Void> promise) {
        return lifecycleOp(ChannelHandlerMask.CLOSE, promise);
    }

    @Override
    public Future<Void> register() {
        return register(newPromise());
    }

    @Override
    public Future<Void> register(Promise<Void> promise) {
        return lifecycleOp(ChannelHandlerMask.REGISTER, promise);
    }

    @Override
    public Future<Void> deregister() {
        return deregister(newPromise());
    }

    @Override
    public Future<Void> deregister(Promise<Void> promise) {
        return lifecycleOp(ChannelHandlerMask.DEREGISTER, promise);
    }

    /** disconnect, close, register and deregister: same shape, one of four handler methods. */
    private Future<Void> lifecycleOp(int op, Promise<Void> promise) {
        if (!validPromise(promise)) {
            return promise;
        }
        HandlerContext ctx = findOutbound(op);
        if (ctx.executor.inEventLoop()) {
            ctx.invokeLifecycleOp(op, promise);
        } else {
            runOn(ctx, () -> ctx.invokeLifecycleOp(op, promise), promise, null);
        }
        return promise;
    }

    private void invokeLifecycleOp(int op, Promise<Void> promise) {
        if (!ready()) {
            lifecycleOp(op, promise);
            return;
        }
        try {
            switch (op) {
                case ChannelHandlerMask.DISCONNECT -> handler.disconnect(this, promise);
                case ChannelHandlerMask.CLOSE -> handler.close(this, promise);
                case ChannelHandlerMask.REGISTER -> handler.register(this, promise);
                case ChannelHandlerMask.DEREGISTER -> handler.deregister(this, promise);
                default -> throw new AssertionError(op);
            }
        } catch (Throwable t) {
            failOutbound(promise, t);
        }
    }

    @Override
    public ChannelHandlerContext read() {
        HandlerContext ctx = findOutbound(ChannelHandlerMask.READ);
        if (ctx.executor.inEventLoop()) {
            ctx.invokeRead();
        } else {
            runOn(ctx, ctx::invokeRead, null, null);
        }
        return this;
    }

    private void invokeRead() {
        if (!ready()) {
            read();
            return;
        }
        try {
            handler.read(this);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public Future<Void> write(Object msg) {
        return write(msg, newPromise());
    }

    @Override
    public Future<Void> write(Object msg, Promise<Void> promise) {
        write(msg, false, promise);
        return promise;
    }

    @Override
    public Future<Void> writeAndFlush(Object msg) {
        return writeAndFlush(msg, newPromise());
    }

    @Override
    public Future<Void> writeAndFlush(Object msg, Promise<Void> promise) {
        write(msg, true, promise);
        return promise;
    }

    private void write(Object msg, boolean flush, Promise<Void> promise) {
        Objects.requireNonNull(msg, "msg");
        if (!validPromise(promise)) {
            ReferenceCountUtil.safeRelease(msg);
            return;
        }
        HandlerContext ctx = flush ? route(EventRoutes.WRITE_AND_FLUSH) : findOutbound(ChannelHandlerMask.WRITE);
        if (ctx.executor.inEventLoop()) {
            ctx.invokeWrite(msg, flush, promise);
        } else {
            runOn(ctx, () -> ctx.invokeWrite(msg, flush, promise), promise, msg);
        }
    }

    private void invokeWrite(Object msg, boolean flush, Promise<Void> promise) {
        if (!ready()) {
            write(msg, flush, promise);
            return;
        }
        try {
            handler.write(this, msg, promise);
        } catch (Throwable t) {
            failOutbound(promise, t);
        }
        if (flush) {
            invokeFlush();
        }
    }

    @Override
    public ChannelHandlerContext flush() {
        HandlerContext ctx = findOutbound(ChannelHandlerMask.FLUSH);
        if (ctx.executor.inEventLoop()) {
            ctx.invokeFlush();
        } else {
            runOn(ctx, ctx::invokeFlush, null, null);
        }
        return this;
    }

    private void invokeFlush() {
        if (!ready()) {
            flush();
            return;
        }
        try {
            handler.flush(this);
        } catch (Throwable t) {
            invokeExceptionCaught(t);
        }
    }

    @Override
    public Promise<Void> newPromise() {
        return new DefaultPromise<>(executor);
    }

    @Override
    public Future<Void> newSucceededFuture() {
        return executor.newSucceededFuture(null);
    }

    @Override
    public Future<Void> newFailedFuture(Throwable cause) {
        return executor.newFailedFuture(cause);
    }

    @Override
    public Promise<Void> voidPromise() {
        return pipeline.voidPromise();
    }

    @Override
    public String toString() {
        return "ChannelHandlerContext(" + name + ", " + pipeline.channel() + ')';
    }
}
