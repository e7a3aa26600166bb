package io.rill.handler.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;

/**
 * Connects through an HTTP proxy with {@code CONNECT host:port} (RFC 9110 §9.3.6), optionally with
 * basic authentication ({@code Proxy-Authorization}, RFC 7617). A 2xx answer opens the tunnel; any
 * other fails the connect with the status in the message, e.g.
 * {@code HTTP proxy 127.0.0.1:3128 answered 407 Proxy Authentication Required}.
 *
 * <p>For TLS to the proxy itself (an {@code https://} proxy), put an {@code SslHandler} for the
 * proxy before this handler; TLS to the destination goes after it, as usual.
 */
public final class HttpProxyHandler extends ProxyHandler {

    private final String authorization;
    private final HttpHeaders extraHeaders;
    /** The codec while the handshake runs; null before and after. */
    private HttpClientCodec codec;
    /** The status of the answer, once its head has been read. */
    private HttpResponse answer;

    /**
     * A handler without authentication.
     *
     * @param proxyAddress the proxy's address
     */
    public HttpProxyHandler(SocketAddress proxyAddress) {
        this(proxyAddress, null, null, null);
    }

    /**
     * A handler with basic authentication.
     *
     * @param proxyAddress the proxy's address
     * @param username     the user name, no colon; null for no authentication
     * @param password     the password; null with a null username
     */
    public HttpProxyHandler(SocketAddress proxyAddress, String username, String password) {
        this(proxyAddress, username, password, null);
    }

    /**
     * A handler with basic authentication and extra header fields for the CONNECT request.
     *
     * @param proxyAddress the proxy's address
     * @param username     the user name, no colon; null for no authentication
     * @param password     the password; null with a null username
     * @param extraHeaders fields added to the CONNECT request, or null
     */
    public HttpProxyHandler(SocketAddress proxyAddress, String username, String password, HttpHeaders extraHeaders) {
        super(proxyAddress);
        if ((username == null) != (password == null)) {
            throw new IllegalArgumentException("username and password: give both or neither");
        }
        if (username != null && username.indexOf(':') >= 0) {
            throw new IllegalArgumentException("username: a colon would end it early in basic authentication");
        }
        this.authorization = username == null ? null : "Basic " + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.extraHeaders = extraHeaders;
    }

    @Override
    public String protocol() {
        return "HTTP";
    }

    @Override
    public String authScheme() {
        return authorization != null ? "basic" : "none";
    }

    @Override
    protected void addCodecs(ChannelHandlerContext ctx) {
        codec = new HttpClientCodec();
        ctx.pipeline().addBefore(ctx.name(), null, codec);
    }

    @Override
    protected void removeCodecs(ChannelHandlerContext ctx) {
        if (codec != null) {
            HttpClientCodec c = codec;
            codec = null;
            if (ctx.pipeline().context(c) != null) {
                ctx.pipeline().remove(c);
            }
        }
    }

    @Override
    protected Object newInitialMessage(ChannelHandlerContext ctx) {
        SocketAddress destination = destinationAddress();
        if (!(destination instanceof InetSocketAddress inet)) {
            throw new IllegalArgumentException(prefix() + ": a CONNECT destination must be an InetSocketAddress, not "
                    + destination);
        }
        String authority = hostPort(inet);
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.CONNECT, authority);
        request.headers().set(HttpHeaderNames.HOST, authority);
        if (authorization != null) {
            request.headers().set(HttpHeaderNames.PROXY_AUTHORIZATION, authorization);
        }
        if (extraHeaders != null) {
            request.headers().add(extraHeaders);
        }
        return request;
    }

    /** The authority-form target (RFC 9112 §3.2.3): an IPv6 literal in brackets. */
    private static String hostPort(InetSocketAddress destination) {
        String host = SocksDestination.host(destination);
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + destination.getPort();
    }

    @Override
    protected boolean handleResponse(ChannelHandlerContext ctx, Object response) throws Exception {
        if (response instanceof HttpResponse head) {
            int code = head.status().code();
            if (code == 407) {
                throw authenticationFailed("answered " + code + " " + head.status().reasonPhrase());
            }
            if (code < 200 || code > 299) {
                throw new ProxyRefusedException(prefix() + " answered " + code + " " + head.status().reasonPhrase(),
                        protocol(), proxyAddress());
            }
            answer = head;
        }
        if (response instanceof LastHttpContent) {
            if (answer == null) {
                throw malformed("a body without a response head");
            }
            return true;
        }
        return false;
    }
}
