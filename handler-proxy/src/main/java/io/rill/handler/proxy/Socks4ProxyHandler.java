package io.rill.handler.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.socks.Socks4CommandRequest;
import io.rill.handler.codec.socks.Socks4CommandResponse;
import io.rill.handler.codec.socks.Socks4CommandResponseDecoder;
import io.rill.handler.codec.socks.Socks4CommandType;
import io.rill.handler.codec.socks.Socks4ReplyStatus;
import io.rill.handler.codec.socks.SocksMessageEncoder;

/**
 * Connects through a SOCKS4 proxy; an unresolved destination makes it a SOCKS4a request, the name
 * sent for the proxy to resolve. SOCKS4 carries only IPv4 addresses.
 */
public final class Socks4ProxyHandler extends ProxyHandler {

    private final String userId;

    /**
     * A handler sending an empty user id.
     *
     * @param proxyAddress the proxy's address
     */
    public Socks4ProxyHandler(SocketAddress proxyAddress) {
        this(proxyAddress, "");
    }

    /**
     * A handler sending {@code userId}.
     *
     * @param proxyAddress the proxy's address
     * @param userId       the user id: no NUL, at most 255 bytes of UTF-8
     */
    public Socks4ProxyHandler(SocketAddress proxyAddress, String userId) {
        super(proxyAddress);
        new Socks4CommandRequest(Socks4CommandType.CONNECT, "0.0.0.1", 1, userId); // checks it now, not at connect
        this.userId = userId;
    }

    @Override
    public String protocol() {
        return "SOCKS4";
    }

    @Override
    public String authScheme() {
        return "none";
    }

    @Override
    protected void addCodecs(ChannelHandlerContext ctx) {
        ctx.pipeline().addBefore(ctx.name(), null, SocksMessageEncoder.INSTANCE);
        Socks5ProxyHandler.addDecoder(ctx, new Socks4CommandResponseDecoder());
    }

    @Override
    protected void removeCodecs(ChannelHandlerContext ctx) {
        Socks5ProxyHandler.removeSocksCodecs(ctx);
    }

    @Override
    protected Object newInitialMessage(ChannelHandlerContext ctx) {
        InetSocketAddress destination = SocksDestination.inet(destinationAddress(), prefix());
        String host = SocksDestination.host(destination);
        if (!destination.isUnresolved() && host.indexOf(':') >= 0) {
            throw new IllegalArgumentException(prefix() + ": SOCKS4 cannot carry the IPv6 destination " + host);
        }
        return new Socks4CommandRequest(Socks4CommandType.CONNECT, host, destination.getPort(), userId);
    }

    @Override
    protected boolean handleResponse(ChannelHandlerContext ctx, Object response) throws ProxyConnectException {
        if (!(response instanceof Socks4CommandResponse reply)) {
            throw malformed("unexpected " + response);
        }
        if (reply.status() != Socks4ReplyStatus.GRANTED) {
            throw refused(reply.status().description() + " (reply " + reply.status().code() + ")");
        }
        return true;
    }
}
