package io.rill.handler.ipfilter;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Allows one connection per peer IP address at a time: a second channel from an address that
 * already has one open is rejected. The address is taken in canonical form, so an IPv4 peer
 * cannot open a second channel by appearing as {@code ::ffff:a.b.c.d}.
 *
 * <p>Share one instance among all the channels it should police (e.g. as a server's child
 * handler): the set of connected addresses lives in it and is safe for concurrent use.
 */
@ChannelHandler.Sharable
public class UniqueIpFilter extends AbstractIpFilter {

    private final Set<InetAddress> connected = ConcurrentHashMap.newKeySet();

    @Override
    protected boolean accept(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) {
        InetAddress address = IpSubnetFilterRule.canonical(remoteAddress.getAddress());
        if (!connected.add(address)) {
            return false;
        }
        ctx.channel().closeFuture().addListener(f -> connected.remove(address));
        return true;
    }
}
