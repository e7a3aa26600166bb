package io.rill.handler.ipfilter;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

import io.rill.channel.AttributeKey;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Future;

/**
 * The shared part of the IP filters: decides once per channel, as it becomes active, whether
 * its peer may stay. An accepted channel loses the filter from its pipeline and goes on as if
 * the filter had never been there. A rejected channel is closed and its {@code channelActive}
 * never reaches the handlers after the filter, so no application handler ever sees it.
 *
 * <p>Channels without an IP peer (in-VM, Unix-domain) are let through: there is nothing to filter.
 * A peer whose address is unresolved is rejected, since no rule could be checked against it.
 *
 * <p>{@link #channelRejected} decides how a rejected channel closes: override it to write a
 * goodbye first and return that write's future, after which the channel is closed.
 */
public abstract class AbstractIpFilter implements ChannelHandler {

    /** Marks a channel already rejected, so a second look (handlerAdded, then channelActive) does not decide again. */
    private static final AttributeKey<Boolean> REJECTED = AttributeKey.valueOf("rill.ipfilter.rejected");

    /**
     * True if a peer at {@code remoteAddress} may keep its channel.
     *
     * @param ctx           the context of this filter; called on the event loop, once per channel
     * @param remoteAddress the peer's resolved address
     * @return true to accept, false to reject
     * @throws Exception any failure; it goes to {@code exceptionCaught} and the channel is not accepted
     */
    protected abstract boolean accept(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) throws Exception;

    /**
     * Called for an accepted channel, after the filter has left its pipeline.
     *
     * @param ctx           the context the filter had
     * @param remoteAddress the peer's address
     */
    protected void channelAccepted(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) {
    }

    /**
     * Called for a rejected channel before it is closed. Returns null to close at once, or a
     * future (e.g. of writing an error message) to close once it completes.
     *
     * @param ctx           the context of this filter
     * @param remoteAddress the peer's address
     * @return null, or the future after which the channel closes
     */
    protected Future<Void> channelRejected(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) {
        return null;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        // Added to a channel that is already active (e.g. by an initializer of an accepted channel).
        if (ctx.channel().isActive()) {
            decide(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (decide(ctx)) {
            ctx.fireChannelActive();
        }
    }

    /** True if the channel may go on; a rejected one is on its way to being closed. */
    private boolean decide(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().hasAttr(REJECTED)) {
            return false;
        }
        SocketAddress remote = ctx.channel().remoteAddress();
        if (!(remote instanceof InetSocketAddress inet)) {
            ctx.pipeline().remove(this);
            return true;
        }
        if (!inet.isUnresolved() && accept(ctx, inet)) {
            ctx.pipeline().remove(this);
            channelAccepted(ctx, inet);
            return true;
        }
        ctx.channel().attr(REJECTED).set(Boolean.TRUE);
        Future<Void> goodbye = channelRejected(ctx, inet);
        if (goodbye == null) {
            ctx.close();
        } else {
            goodbye.addListener(f -> ctx.close());
        }
        return false;
    }
}
