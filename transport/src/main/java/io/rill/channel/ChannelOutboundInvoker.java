package io.rill.channel;

import java.net.SocketAddress;

import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * The outbound operations shared by {@link Channel}, {@link ChannelPipeline} and
 * {@link ChannelHandlerContext}. On a channel or pipeline they start at the tail of the
 * pipeline; on a context, at the handler before it.
 *
 * <p>Every operation that has a result returns a {@link Future}; the variants taking a
 * {@link Promise} complete that one instead, so a handler can pass its own promise along
 * without allocating. Passing {@link #voidPromise()} says nobody looks at the result: failures
 * then reach {@code exceptionCaught} instead.
 */
public interface ChannelOutboundInvoker {

    Future<Void> bind(SocketAddress localAddress);

    Future<Void> bind(SocketAddress localAddress, Promise<Void> promise);

    Future<Void> connect(SocketAddress remoteAddress);

    Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress);

    Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress, Promise<Void> promise);

    Future<Void> disconnect();

    Future<Void> disconnect(Promise<Void> promise);

    Future<Void> close();

    Future<Void> close(Promise<Void> promise);

    Future<Void> register();

    Future<Void> register(Promise<Void> promise);

    Future<Void> deregister();

    Future<Void> deregister(Promise<Void> promise);

    /** Requests one more read from the transport. */
    ChannelOutboundInvoker read();

    /** Queues {@code msg} in the outbound buffer; nothing reaches the wire before a {@link #flush()}. */
    Future<Void> write(Object msg);

    Future<Void> write(Object msg, Promise<Void> promise);

    /** Writes out everything queued. */
    ChannelOutboundInvoker flush();

    /** {@link #write(Object)} then {@link #flush()}. */
    Future<Void> writeAndFlush(Object msg);

    Future<Void> writeAndFlush(Object msg, Promise<Void> promise);

    /** A new promise for one operation of this invoker's channel. */
    Promise<Void> newPromise();

    /** A future that has already succeeded. */
    Future<Void> newSucceededFuture();

    /** A future that has already failed with {@code cause}. */
    Future<Void> newFailedFuture(Throwable cause);

    /**
     * The channel's shared promise for operations whose result nobody observes: it cannot be
     * listened to or waited on, and a failure completing it is fired as {@code exceptionCaught}.
     */
    Promise<Void> voidPromise();
}
