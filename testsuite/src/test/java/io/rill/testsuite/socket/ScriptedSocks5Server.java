package io.rill.testsuite.socket;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.socks.Socks5AuthMethod;
import io.rill.handler.codec.socks.Socks5CommandRequest;
import io.rill.handler.codec.socks.Socks5CommandRequestDecoder;
import io.rill.handler.codec.socks.Socks5CommandResponse;
import io.rill.handler.codec.socks.Socks5CommandStatus;
import io.rill.handler.codec.socks.Socks5InitialRequest;
import io.rill.handler.codec.socks.Socks5InitialRequestDecoder;
import io.rill.handler.codec.socks.Socks5InitialResponse;
import io.rill.handler.codec.socks.Socks5PasswordAuthRequest;
import io.rill.handler.codec.socks.Socks5PasswordAuthRequestDecoder;
import io.rill.handler.codec.socks.Socks5PasswordAuthResponse;
import io.rill.handler.codec.socks.SocksMessageEncoder;
import io.rill.handler.ssl.SslContext;

/**
 * A SOCKS5 server for proxy-handler tests that follows a script instead of relaying: it checks the
 * credentials it was given, answers CONNECT with the scripted reply, and after a success echoes
 * what comes through the "tunnel" (so the test client's bytes come back from the proxy itself).
 * Every CONNECT request it receives goes to {@link #requests}, to check what the client sent.
 *
 * @param username required user name, or null for no authentication
 * @param password required password
 * @param reply    the CONNECT reply
 * @param silent   never answer anything (a proxy that hangs)
 * @param closeAfterGreeting close the connection instead of answering the greeting
 * @param requests where CONNECT requests go
 * @param tunnelTls  when not null, the "tunnel" is a TLS server with this context in front of the echo
 */
record ScriptedSocks5Server(String username, String password, Socks5CommandStatus reply, boolean silent,
                            boolean closeAfterGreeting, BlockingQueue<Socks5CommandRequest> requests,
                            SslContext tunnelTls) {

    ScriptedSocks5Server(String username, String password, Socks5CommandStatus reply, boolean silent,
                         boolean closeAfterGreeting, BlockingQueue<Socks5CommandRequest> requests) {
        this(username, password, reply, silent, closeAfterGreeting, requests, null);
    }

    static ScriptedSocks5Server withTlsTunnel(SslContext tls) {
        return new ScriptedSocks5Server(null, null, Socks5CommandStatus.SUCCESS, false, false,
                new LinkedBlockingQueue<>(), tls);
    }

    static ScriptedSocks5Server answering(Socks5CommandStatus reply) {
        return new ScriptedSocks5Server(null, null, reply, false, false, new LinkedBlockingQueue<>());
    }

    static ScriptedSocks5Server withPassword(String username, String password) {
        return new ScriptedSocks5Server(username, password, Socks5CommandStatus.SUCCESS, false, false,
                new LinkedBlockingQueue<>());
    }

    static ScriptedSocks5Server silentOne() {
        return new ScriptedSocks5Server(null, null, Socks5CommandStatus.SUCCESS, true, false, new LinkedBlockingQueue<>());
    }

    static ScriptedSocks5Server closingAfterGreeting() {
        return new ScriptedSocks5Server(null, null, Socks5CommandStatus.SUCCESS, false, true, new LinkedBlockingQueue<>());
    }

    ChannelHandler childHandler() {
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(SocksMessageEncoder.INSTANCE, new Socks5InitialRequestDecoder(), new Script());
            }
        };
    }

    private final class Script implements ChannelHandler {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (silent) {
                return;
            }
            if (msg instanceof Socks5InitialRequest greeting) {
                if (closeAfterGreeting) {
                    ctx.close();
                    return;
                }
                List<Socks5AuthMethod> offered = greeting.methods();
                Socks5AuthMethod wanted = username != null ? Socks5AuthMethod.PASSWORD : Socks5AuthMethod.NO_AUTH;
                if (!offered.contains(wanted)) {
                    ctx.writeAndFlush(new Socks5InitialResponse(Socks5AuthMethod.NO_ACCEPTABLE_METHODS))
                            .addListener(f -> ctx.close());
                    return;
                }
                ctx.pipeline().addBefore(ctx.name(), null, username != null ? new Socks5PasswordAuthRequestDecoder()
                        : new Socks5CommandRequestDecoder());
                ctx.writeAndFlush(new Socks5InitialResponse(wanted));
            } else if (msg instanceof Socks5PasswordAuthRequest auth) {
                boolean ok = auth.username().equals(username) && auth.password().equals(password);
                if (ok) {
                    ctx.pipeline().addBefore(ctx.name(), null, new Socks5CommandRequestDecoder());
                    ctx.writeAndFlush(Socks5PasswordAuthResponse.SUCCESS);
                } else {
                    ctx.writeAndFlush(Socks5PasswordAuthResponse.FAILURE).addListener(f -> ctx.close());
                }
            } else if (msg instanceof Socks5CommandRequest request) {
                requests.add(request);
                ctx.writeAndFlush(new Socks5CommandResponse(reply));
                if (reply.isSuccess()) {
                    ctx.pipeline().remove(SocksMessageEncoder.INSTANCE);
                    ctx.pipeline().replace(this, null, new EchoHandler());
                    if (tunnelTls != null) {
                        ctx.pipeline().addFirst(tunnelTls.newHandler(ctx.alloc()));
                    }
                } else {
                    ctx.close();
                }
            } else {
                io.rill.buffer.ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
