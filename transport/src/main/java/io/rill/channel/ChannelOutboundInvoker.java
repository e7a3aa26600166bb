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

    /**
     * Binds to {@code localAddress}. Any thread.
     *
     * @param localAddress the address to listen or send from
     * @return a future completed when bound
     */
    Future<Void> bind(SocketAddress localAddress);

    /**
     * Binds to {@code localAddress}, completing {@code promise}. Any thread.
     *
     * @param localAddress the address to listen or send from
     * @param promise completed with the outcome
     * @return {@code promise}
     */
    Future<Void> bind(SocketAddress localAddress, Promise<Void> promise);

    /**
     * Connects to {@code remoteAddress}. Any thread.
     *
     * @param remoteAddress the peer
     * @return a future completed when connected; it fails after {@code CONNECT_TIMEOUT_MILLIS}
     */
    Future<Void> connect(SocketAddress remoteAddress);

    /**
     * Connects to {@code remoteAddress} from {@code localAddress}. Any thread.
     *
     * @param remoteAddress the peer
     * @param localAddress the address to bind first, or null for any
     * @return a future completed when connected
     */
    Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress);

    /**
     * Connects to {@code remoteAddress} from {@code localAddress}, completing {@code promise}. Any thread.
     *
     * @param remoteAddress the peer
     * @param localAddress the address to bind first, or null for any
     * @param promise completed with the outcome
     * @return {@code promise}
     */
    Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress, Promise<Void> promise);

    /**
     * Disconnects: a datagram channel forgets its peer, a stream channel closes. Any thread.
     *
     * @return a future completed when disconnected
     */
    Future<Void> disconnect();

    /**
     * Disconnects, completing {@code promise}. Any thread.
     *
     * @param promise completed with the outcome
     * @return {@code promise}
     */
    Future<Void> disconnect(Promise<Void> promise);

    /**
     * Closes the channel. Any thread.
     *
     * @return a future completed when the channel is closed
     */
    Future<Void> close();

    /**
     * Closes the channel, completing {@code promise}. Any thread.
     *
     * @param promise completed with the outcome
     * @return {@code promise}
     */
    Future<Void> close(Promise<Void> promise);

    /**
     * Registers the channel with its event loop's I/O handler. Any thread.
     *
     * @return a future completed when registered
     */
    Future<Void> register();

    /**
     * Registers the channel, completing {@code promise}. Any thread.
     *
     * @param promise completed with the outcome
     * @return {@code promise}
     */
    Future<Void> register(Promise<Void> promise);

    /**
     * Deregisters the channel from its event loop's I/O handler without closing it. Any thread.
     *
     * @return a future completed when deregistered
     */
    Future<Void> deregister();

    /**
     * Deregisters the channel, completing {@code promise}. Any thread.
     *
     * @param promise completed with the outcome
     * @return {@code promise}
     */
    Future<Void> deregister(Promise<Void> promise);

    /**
     * Requests one more read from the transport.
     *
     * @return this invoker
     */
    ChannelOutboundInvoker read();

    /**
     * Queues {@code msg} in the outbound buffer; nothing reaches the wire before a {@link #flush()}.
     *
     * @param msg the message; ownership passes to the channel, which releases it once written or failed
     * @return a future completed when the message was written to the transport, or failed
     */
    Future<Void> write(Object msg);

    /**
     * Queues {@code msg} like {@link #write(Object)}, completing {@code promise}.
     *
     * @param msg the message; ownership passes to the channel, which releases it once written or failed
     * @param promise completed with the outcome
     * @return {@code promise}
     */
    Future<Void> write(Object msg, Promise<Void> promise);

    /**
     * Writes out everything queued.
     *
     * @return this invoker
     */
    ChannelOutboundInvoker flush();

    /**
     * {@link #write(Object)} then {@link #flush()}.
     *
     * @param msg the message; ownership passes to the channel
     * @return a future completed when the message was written, or failed
     */
    Future<Void> writeAndFlush(Object msg);

    /**
     * {@link #write(Object, Promise)} then {@link #flush()}.
     *
     * @param msg the message; ownership passes to the channel
     * @param promise completed with the outcome
     * @return {@code promise}
     */
    Future<Void> writeAndFlush(Object msg, Promise<Void> promise);

    /** {@return a new promise for one operation of this invoker's channel} */
    Promise<Void> newPromise();

    /** {@return a future that has already succeeded} */
    Future<Void> newSucceededFuture();

    /**
     * {@return a future that has already failed with {@code cause}}
     *
     * @param cause the failure
     */
    Future<Void> newFailedFuture(Throwable cause);

    /**
     * The channel's shared promise for operations whose result nobody observes: it cannot be
     * listened to or waited on, and a failure completing it is fired as {@code exceptionCaught}.
     *
     * @return the void promise
     */
    Promise<Void> voidPromise();
}
