package io.rill.handler.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.socks.Socks5AuthMethod;
import io.rill.handler.codec.socks.Socks5CommandRequest;
import io.rill.handler.codec.socks.Socks5CommandResponse;
import io.rill.handler.codec.socks.Socks5CommandResponseDecoder;
import io.rill.handler.codec.socks.Socks5CommandType;
import io.rill.handler.codec.socks.Socks5InitialRequest;
import io.rill.handler.codec.socks.Socks5InitialResponse;
import io.rill.handler.codec.socks.Socks5InitialResponseDecoder;
import io.rill.handler.codec.socks.Socks5PasswordAuthRequest;
import io.rill.handler.codec.socks.Socks5PasswordAuthResponse;
import io.rill.handler.codec.socks.Socks5PasswordAuthResponseDecoder;
import io.rill.handler.codec.socks.SocksMessageDecoder;
import io.rill.handler.codec.socks.SocksMessageEncoder;

/**
 * Connects through a SOCKS5 proxy (RFC 1928), without authentication or with a username and
 * password (RFC 1929). An unresolved destination travels as a domain name for the proxy to resolve.
 *
 * <pre>
 *   greeting (methods) ─► method chosen ─► [username/password ─► verdict] ─► CONNECT ─► reply
 * </pre>
 */
public final class Socks5ProxyHandler extends ProxyHandler {

    private final String username;
    private final String password;

    /**
     * A handler that offers no authentication.
     *
     * @param proxyAddress the proxy's address
     */
    public Socks5ProxyHandler(SocketAddress proxyAddress) {
        this(proxyAddress, null, null);
    }

    /**
     * A handler that offers username/password authentication (and none, should the proxy need none).
     *
     * @param proxyAddress the proxy's address
     * @param username     the user name, 1 to 255 bytes of UTF-8; null for no authentication
     * @param password     the password, 1 to 255 bytes of UTF-8; null with a null username
     */
    public Socks5ProxyHandler(SocketAddress proxyAddress, String username, String password) {
        super(proxyAddress);
        if ((username == null) != (password == null)) {
            throw new IllegalArgumentException("username and password: give both or neither");
        }
        if (username != null) {
            new Socks5PasswordAuthRequest(username, password); // checks both lengths now, not at connect
        }
        this.username = username;
        this.password = password;
    }

    @Override
    public String protocol() {
        return "SOCKS5";
    }

    @Override
    public String authScheme() {
        return username != null ? "password" : "none";
    }

    @Override
    protected void addCodecs(ChannelHandlerContext ctx) {
        ctx.pipeline().addBefore(ctx.name(), null, SocksMessageEncoder.INSTANCE);
        addDecoder(ctx, new Socks5InitialResponseDecoder());
    }

    @Override
    protected void removeCodecs(ChannelHandlerContext ctx) {
        removeSocksCodecs(ctx);
    }

    @Override
    protected Object newInitialMessage(ChannelHandlerContext ctx) {
        return new Socks5InitialRequest(username != null
                ? List.of(Socks5AuthMethod.NO_AUTH, Socks5AuthMethod.PASSWORD) : List.of(Socks5AuthMethod.NO_AUTH));
    }

    @Override
    protected boolean handleResponse(ChannelHandlerContext ctx, Object response) throws Exception {
        if (response instanceof Socks5InitialResponse selection) {
            Socks5AuthMethod method = selection.method();
            if (method.equals(Socks5AuthMethod.PASSWORD) && username != null) {
                addDecoder(ctx, new Socks5PasswordAuthResponseDecoder());
                sendToProxy(new Socks5PasswordAuthRequest(username, password));
            } else if (method.equals(Socks5AuthMethod.NO_AUTH)) {
                sendConnect(ctx);
            } else if (method.equals(Socks5AuthMethod.NO_ACCEPTABLE_METHODS)) {
                throw authenticationFailed("accepted none of the authentication methods offered ("
                        + newInitialMessage(ctx) + ")");
            } else {
                throw malformed("chose authentication method " + method + ", which was not offered");
            }
            return false;
        }
        if (response instanceof Socks5PasswordAuthResponse verdict) {
            if (!verdict.isSuccess()) {
                throw authenticationFailed(String.format("rejected the username/password (status 0x%02x)",
                        verdict.status()));
            }
            sendConnect(ctx);
            return false;
        }
        if (response instanceof Socks5CommandResponse reply) {
            if (!reply.status().isSuccess()) {
                throw refused(reply.status().toString());
            }
            return true;
        }
        throw malformed("unexpected " + response);
    }

    private void sendConnect(ChannelHandlerContext ctx) {
        InetSocketAddress destination = SocksDestination.inet(destinationAddress(), prefix());
        addDecoder(ctx, new Socks5CommandResponseDecoder());
        sendToProxy(new Socks5CommandRequest(Socks5CommandType.CONNECT, SocksDestination.host(destination),
                destination.getPort()));
    }

    /** Puts the decoder of the next answer just before this handler, after the one that decoded the last. */
    static void addDecoder(ChannelHandlerContext ctx, SocksMessageDecoder decoder) {
        ctx.pipeline().addBefore(ctx.name(), null, decoder);
    }

    static void removeSocksCodecs(ChannelHandlerContext ctx) {
        if (ctx.pipeline().context(SocksMessageEncoder.INSTANCE) != null) {
            ctx.pipeline().remove(SocksMessageEncoder.INSTANCE);
        }
        for (ChannelHandlerContext decoder; (decoder = ctx.pipeline().context(SocksMessageDecoder.class)) != null; ) {
            ChannelHandler handler = decoder.handler();
            ctx.pipeline().remove(handler);
        }
    }
}
