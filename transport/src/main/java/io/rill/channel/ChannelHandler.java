package io.rill.channel;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.SocketAddress;

import io.rill.util.concurrent.Promise;

/**
 * Reacts to the events and operations of a {@link Channel} from its place in the
 * {@link ChannelPipeline}.
 *
 * <p>Inbound events (from the transport to the application) travel from the head of the
 * pipeline to its tail; outbound operations (from the application to the transport) travel
 * from the tail to the head. Every method here has a default that hands the event to the
 * next handler in its direction, so a handler overrides only what it cares about.
 *
 * <p>The pipeline computes once per handler class which methods it overrides: a method
 * still resolving to the default declared here is never invoked, the pipeline walks past
 * the handler instead. Overriding a method just to call {@code ctx.fireXxx} works, but
 * costs a virtual call per event.
 *
 * <p>All methods of a handler run on its context's {@link ChannelHandlerContext#executor()}
 * (the channel's event loop unless the handler was bound to another group), one at a time,
 * so a handler needs no locks. An instance may sit in only one pipeline position at a time
 * unless its class is annotated {@link Sharable}.
 */
public interface ChannelHandler {

    /**
     * Called once, on the handler's executor, before any event reaches the handler.
     *
     * @param ctx the handler's context
     * @throws Exception removes the handler again and fires a {@link ChannelPipelineException} as
     *     {@code exceptionCaught}
     */
    default void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    }

    /**
     * Called once after the handler left the pipeline; no event reaches it afterwards.
     *
     * @param ctx the handler's former context
     * @throws Exception fired as {@code exceptionCaught}, wrapped in a {@link ChannelPipelineException}
     */
    default void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
    }

    // ---------------------------------------------------------------- inbound events

    /**
     * The channel was registered with its event loop's I/O handler.
     *
     * @param ctx the handler's context
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelRegistered();
    }

    /**
     * The channel was deregistered from its event loop's I/O handler.
     *
     * @param ctx the handler's context
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void channelUnregistered(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelUnregistered();
    }

    /**
     * The channel is connected (or bound, for a server channel).
     *
     * @param ctx the handler's context
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelActive();
    }

    /**
     * The channel is no longer active. Fired once.
     *
     * @param ctx the handler's context
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelInactive();
    }

    /**
     * A message arrived. The handler owns {@code msg}: it either passes it on or releases it
     * (see {@link SimpleChannelInboundHandler} for the common case).
     *
     * @param ctx the handler's context
     * @param msg the message, owned by this handler from now on
     * @throws Exception fired as {@code exceptionCaught}; the handler still owns {@code msg}
     */
    default void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        ctx.fireChannelRead(msg);
    }

    /**
     * The last message of the current read burst was delivered; a good point to flush.
     *
     * @param ctx the handler's context
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelReadComplete();
    }

    /**
     * An application or codec event, e.g. an idle-state or handshake-complete notice.
     *
     * @param ctx the handler's context
     * @param evt the event; a reference-counted one is owned like a message
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        ctx.fireUserEventTriggered(evt);
    }

    /**
     * {@link Channel#isWritable()} changed.
     *
     * @param ctx the handler's context
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelWritabilityChanged();
    }

    /**
     * An inbound handler threw, or an I/O error happened.
     *
     * @param ctx the handler's context
     * @param cause the failure
     * @throws Exception logged at warning level with {@code cause} suppressed in it; it is not fed back
     */
    default void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        ctx.fireExceptionCaught(cause);
    }

    // ---------------------------------------------------------------- outbound operations

    /**
     * Binds the channel to {@code localAddress}.
     *
     * @param ctx the handler's context
     * @param localAddress the address
     * @param promise completed with the outcome
     * @throws Exception fails the promise
     */
    default void bind(ChannelHandlerContext ctx, SocketAddress localAddress, Promise<Void> promise)
            throws Exception {
        ctx.bind(localAddress, promise);
    }

    /**
     * Connects to {@code remoteAddress}, binding to {@code localAddress} first unless it is null.
     *
     * @param ctx the handler's context
     * @param remoteAddress the peer
     * @param localAddress the address to bind first, or null
     * @param promise completed with the outcome
     * @throws Exception fails the promise
     */
    default void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                         Promise<Void> promise) throws Exception {
        ctx.connect(remoteAddress, localAddress, promise);
    }

    /**
     * Disconnects from the remote peer.
     *
     * @param ctx the handler's context
     * @param promise completed with the outcome
     * @throws Exception fails the promise
     */
    default void disconnect(ChannelHandlerContext ctx, Promise<Void> promise) throws Exception {
        ctx.disconnect(promise);
    }

    /**
     * Closes the channel.
     *
     * @param ctx the handler's context
     * @param promise completed with the outcome
     * @throws Exception fails the promise
     */
    default void close(ChannelHandlerContext ctx, Promise<Void> promise) throws Exception {
        ctx.close(promise);
    }

    /**
     * Registers the channel with its event loop's I/O handler.
     *
     * @param ctx the handler's context
     * @param promise completed with the outcome
     * @throws Exception fails the promise
     */
    default void register(ChannelHandlerContext ctx, Promise<Void> promise) throws Exception {
        ctx.register(promise);
    }

    /**
     * Deregisters the channel from its event loop's I/O handler.
     *
     * @param ctx the handler's context
     * @param promise completed with the outcome
     * @throws Exception fails the promise
     */
    default void deregister(ChannelHandlerContext ctx, Promise<Void> promise) throws Exception {
        ctx.deregister(promise);
    }

    /**
     * Asks the transport to read once more (the explicit back-pressure of {@code AUTO_READ} off).
     *
     * @param ctx the handler's context
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void read(ChannelHandlerContext ctx) throws Exception {
        ctx.read();
    }

    /**
     * Queues {@code msg} for writing. The handler owns {@code msg}: it passes it on or releases
     * it and completes the promise.
     *
     * @param ctx the handler's context
     * @param msg the message, owned by this handler from now on
     * @param promise completed when the message was written or failed
     * @throws Exception fails the promise; the handler still owns {@code msg} and must not leak it
     */
    default void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        ctx.write(msg, promise);
    }

    /**
     * Writes out everything queued so far.
     *
     * @param ctx the handler's context
     * @throws Exception fired as {@code exceptionCaught}
     */
    default void flush(ChannelHandlerContext ctx) throws Exception {
        ctx.flush();
    }

    /**
     * Marks a handler class whose instances may sit in several pipelines (or several times in
     * one) at once; such a handler must keep no per-channel state in its fields. Adding an
     * instance of an unmarked class a second time fails with {@link ChannelPipelineException}.
     */
    @Inherited
    @Documented
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @interface Sharable {
    }
}
