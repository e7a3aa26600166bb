package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.socks.Socks4CommandRequest;
import io.rill.handler.codec.socks.Socks4CommandRequestDecoder;
import io.rill.handler.codec.socks.Socks4CommandResponse;
import io.rill.handler.codec.socks.Socks4ReplyStatus;
import io.rill.handler.codec.socks.Socks5AddressType;
import io.rill.handler.codec.socks.Socks5CommandRequest;
import io.rill.handler.codec.socks.Socks5CommandStatus;
import io.rill.handler.codec.socks.SocksMessageEncoder;
import io.rill.handler.proxy.HttpProxyHandler;
import io.rill.handler.proxy.ProxyAuthenticationException;
import io.rill.handler.proxy.ProxyClosedException;
import io.rill.handler.proxy.ProxyConnectException;
import io.rill.handler.proxy.ProxyConnectionEvent;
import io.rill.handler.proxy.ProxyHandler;
import io.rill.handler.proxy.ProxyHandshakeTimeoutException;
import io.rill.handler.proxy.ProxyRefusedException;
import io.rill.handler.proxy.Socks4ProxyHandler;
import io.rill.handler.proxy.Socks5ProxyHandler;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.SslHandler;
import io.rill.handler.ssl.util.InsecureTrustManagerFactory;
import io.rill.handler.ssl.util.SelfSignedCertificate;
import io.rill.resolver.NoopAddressResolverGroup;
import io.rill.util.concurrent.Future;

/**
 * The client proxy handlers over real connections to scripted proxies: the tunnel carries bytes
 * both ways, writes made before it was up arrive after the handshake, names travel unresolved, and
 * every way a proxy can say no fails the connect with its own exception naming the proxy and its
 * answer, the channel closed and nothing leaked. Interop with real proxies is in
 * {@code ProxyInteropTest} (dante, curl).
 */
abstract class SocketProxyTests extends AbstractSocketTest {

    private static final byte[] PAYLOAD = "through the tunnel".getBytes(StandardCharsets.US_ASCII);

    @BeforeEach
    void needsTcp() {
        assumeTrue(transport().isInet(), "proxies are reached over TCP");
    }

    /** What a client saw: its bytes, and the proxy event. */
    private static final class Client {
        final ByteCollector bytes = new ByteCollector();
        final BlockingQueue<ProxyConnectionEvent> events = new LinkedBlockingQueue<>();
        Channel channel;
        Future<Void> connect;
    }

    /** Registers a client with {@code proxy} first, and connects it to {@code destination} unresolved. */
    private Client connectThrough(ProxyHandler proxy, String host, int port) {
        Client client = new Client();
        client.channel = track(await(clientBootstrap().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(proxy, new ChannelHandler() {
                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                        if (evt instanceof ProxyConnectionEvent e) {
                            client.events.add(e);
                        }
                        ctx.fireUserEventTriggered(evt);
                    }
                }, client.bytes);
            }
        }).register()));
        client.connect = client.channel.connect(InetSocketAddress.createUnresolved(host, port));
        return client;
    }

    private static String hostPort(Channel server) {
        InetSocketAddress a = (InetSocketAddress) server.localAddress();
        return a.getHostString() + ":" + a.getPort();
    }

    private void assertClosedWith(Client client, Class<? extends ProxyConnectException> type, String message) {
        Throwable cause = awaitFailure(client.connect);
        assertInstanceOf(type, cause);
        assertEquals(message, cause.getMessage());
        assertTrue(client.channel.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "the channel closes after a failed handshake");
    }

    @Test
    void socks5TunnelCarriesEarlyAndLaterWritesAndSendsTheNameUnresolved() throws Exception {
        ScriptedSocks5Server script = ScriptedSocks5Server.answering(Socks5CommandStatus.SUCCESS);
        Channel server = startServer(script.childHandler());
        Socks5ProxyHandler proxy = new Socks5ProxyHandler(server.localAddress());
        Client client = connectThrough(proxy, "destination.example", 8443);
        // Written before the tunnel is up: waits in the proxy handler, then goes through it.
        client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD));
        await(client.connect);
        assertTrue(await(proxy.connectFuture()) == client.channel);
        assertArrayEquals(PAYLOAD, client.bytes.await(PAYLOAD.length));
        await(client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD)));
        assertEquals(2 * PAYLOAD.length, client.bytes.await(2 * PAYLOAD.length).length);

        Socks5CommandRequest request = take(script.requests());
        assertEquals(Socks5AddressType.DOMAIN, request.addressType());
        assertEquals("destination.example", request.host());
        assertEquals(8443, request.port());
        ProxyConnectionEvent event = take(client.events);
        assertEquals("SOCKS5", event.protocol());
        assertEquals("none", event.authScheme());
        assertFalse(client.channel.pipeline().names().stream().anyMatch(n -> n.contains("Socks")),
                () -> "the handler and its codecs left: " + client.channel.pipeline().names());
    }

    @Test
    void withTheNoopResolverBootstrapConnectHandsTheNameToTheProxyUnresolved() throws Exception {
        ScriptedSocks5Server script = ScriptedSocks5Server.answering(Socks5CommandStatus.SUCCESS);
        Channel server = startServer(script.childHandler());
        ByteCollector bytes = new ByteCollector();
        Channel client = track(await(clientBootstrap().resolver(NoopAddressResolverGroup.INSTANCE)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new Socks5ProxyHandler(server.localAddress()), bytes);
                    }
                }).connect("no-such-host.invalid", 443)));
        Socks5CommandRequest request = take(script.requests());
        assertEquals(Socks5AddressType.DOMAIN, request.addressType());
        assertEquals("no-such-host.invalid", request.host(), "not looked up here: the proxy resolves it");
        await(client.writeAndFlush(client.alloc().buffer().writeBytes(PAYLOAD)));
        assertArrayEquals(PAYLOAD, bytes.await(PAYLOAD.length));
    }

    @Test
    void socks5WithUsernameAndPassword() throws Exception {
        Channel server = startServer(ScriptedSocks5Server.withPassword("alice", "s3cret").childHandler());
        Client client = connectThrough(new Socks5ProxyHandler(server.localAddress(), "alice", "s3cret"), "d.example", 80);
        await(client.connect);
        await(client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD)));
        assertArrayEquals(PAYLOAD, client.bytes.await(PAYLOAD.length));
        assertEquals("password", take(client.events).authScheme());
    }

    @Test
    void socks_07_aWrongPasswordIsAnAuthenticationFailure() {
        Channel server = startServer(ScriptedSocks5Server.withPassword("alice", "s3cret").childHandler());
        Client client = connectThrough(new Socks5ProxyHandler(server.localAddress(), "alice", "wrong"), "d.example", 80);
        assertClosedWith(client, ProxyAuthenticationException.class,
                "SOCKS5 proxy " + hostPort(server) + " rejected the username/password (status 0x01)");
    }

    @Test
    void socks_07_aProxyWantingCredentialsNoneWereGivenFor() {
        Channel server = startServer(ScriptedSocks5Server.withPassword("alice", "s3cret").childHandler());
        Client client = connectThrough(new Socks5ProxyHandler(server.localAddress()), "d.example", 80);
        Throwable cause = awaitFailure(client.connect);
        assertInstanceOf(ProxyAuthenticationException.class, cause);
        assertTrue(cause.getMessage().contains("accepted none of the authentication methods"), cause.getMessage());
    }

    @Test
    void socks_08_aRefusalNamesTheProxyAndItsReply() {
        Channel server = startServer(ScriptedSocks5Server.answering(Socks5CommandStatus.CONNECTION_REFUSED).childHandler());
        Client client = connectThrough(new Socks5ProxyHandler(server.localAddress()), "d.example", 80);
        assertClosedWith(client, ProxyRefusedException.class,
                "SOCKS5 proxy " + hostPort(server) + " refused: connection refused (reply 0x05)");
    }

    @Test
    void socks_09_aProxyThatNeverAnswersTimesOut() {
        Channel server = startServer(ScriptedSocks5Server.silentOne().childHandler());
        ProxyHandler proxy = new Socks5ProxyHandler(server.localAddress()).setHandshakeTimeoutMillis(300);
        Client client = connectThrough(proxy, "d.example", 80);
        // A write waiting for the tunnel fails with the handshake, its buffer released.
        Future<Void> early = client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD));
        assertClosedWith(client, ProxyHandshakeTimeoutException.class,
                "SOCKS5 proxy " + hostPort(server) + " did not finish the handshake within 300 ms (handshakeTimeoutMillis)");
        assertInstanceOf(ProxyHandshakeTimeoutException.class, awaitFailure(early));
    }

    @Test
    void writesBeyondMaxPendingWritesFailAtOnceAndTheRestFailWithTheHandshake() {
        Channel server = startServer(ScriptedSocks5Server.silentOne().childHandler());
        ProxyHandler proxy = new Socks5ProxyHandler(server.localAddress()).setHandshakeTimeoutMillis(500)
                .setMaxPendingWrites(2);
        Client client = connectThrough(proxy, "d.example", 80);
        Future<Void> first = client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD));
        Future<Void> second = client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD));
        Future<Void> third = client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD));
        Throwable refused = awaitFailure(third);
        assertTrue(refused.getMessage().endsWith("more than 2 writes made before the tunnel was up (maxPendingWrites)"),
                refused.getMessage());
        assertInstanceOf(ProxyHandshakeTimeoutException.class, awaitFailure(first));
        assertInstanceOf(ProxyHandshakeTimeoutException.class, awaitFailure(second));
        assertInstanceOf(ProxyHandshakeTimeoutException.class, awaitFailure(client.connect));
    }

    @Test
    void socks_10_aProxyClosingMidHandshake() {
        Channel server = startServer(ScriptedSocks5Server.closingAfterGreeting().childHandler());
        Client client = connectThrough(new Socks5ProxyHandler(server.localAddress()), "d.example", 80);
        assertClosedWith(client, ProxyClosedException.class,
                "SOCKS5 proxy " + hostPort(server) + " closed the connection before the tunnel was up");
    }

    @Test
    void anUnreachableProxyFailsWithTheConnectError() throws Exception {
        Channel server = startServer(new EchoHandler());
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        await(server.close());
        Client client = connectThrough(new Socks5ProxyHandler(address), "d.example", 80);
        Throwable cause = awaitFailure(client.connect);
        assertInstanceOf(ProxyConnectException.class, cause);
        assertTrue(cause.getMessage().startsWith("SOCKS5 proxy " + address.getHostString() + ":" + address.getPort()
                + ": could not connect to the proxy"), cause.getMessage());
        assertNotNull(cause.getCause());
    }

    @Test
    void socks4aSendsTheNameAndTunnels() throws Exception {
        BlockingQueue<Socks4CommandRequest> requests = new LinkedBlockingQueue<>();
        Channel server = startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(SocksMessageEncoder.INSTANCE, new Socks4CommandRequestDecoder(), new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        requests.add((Socks4CommandRequest) msg);
                        ctx.writeAndFlush(new Socks4CommandResponse(Socks4ReplyStatus.GRANTED));
                        ctx.pipeline().remove(SocksMessageEncoder.INSTANCE);
                        ctx.pipeline().replace(this, null, new EchoHandler());
                    }
                });
            }
        });
        Client client = connectThrough(new Socks4ProxyHandler(server.localAddress(), "fred"), "d.example", 21);
        await(client.connect);
        await(client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD)));
        assertArrayEquals(PAYLOAD, client.bytes.await(PAYLOAD.length));
        Socks4CommandRequest request = take(requests);
        assertTrue(request.isSocks4a());
        assertEquals("d.example", request.host());
        assertEquals("fred", request.userId());
    }

    @Test
    void httpConnectWithBasicAuthentication() throws Exception {
        ScriptedHttpProxy script = ScriptedHttpProxy.answering("HTTP/1.1 200 Connection established");
        Channel server = startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(script.childHandler());
            }
        });
        Client client = connectThrough(new HttpProxyHandler(server.localAddress(), "bob", "pw"), "d.example", 443);
        client.channel.writeAndFlush(client.channel.alloc().buffer().writeBytes(PAYLOAD));
        await(client.connect);
        assertArrayEquals(PAYLOAD, client.bytes.await(PAYLOAD.length));
        String head = take(script.heads()).toLowerCase(java.util.Locale.ROOT);
        assertTrue(head.startsWith("connect d.example:443 http/1.1\r\n"), head);
        assertTrue(head.contains("host: d.example:443\r\n"), head);
        assertTrue(head.contains("proxy-authorization: basic ym9ionb3\r\n"), head);
        assertEquals("basic", take(client.events).authScheme());
    }

    @Test
    void socks_11_http407IsAnAuthenticationFailureAnd403ARefusal() {
        for (String[] c : new String[][] {{"HTTP/1.1 407 Proxy Authentication Required", "407"},
                                          {"HTTP/1.1 403 Forbidden", "403"}}) {
            ScriptedHttpProxy script = ScriptedHttpProxy.answering(c[0]);
            Channel server = startServer(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(script.childHandler());
                }
            });
            Client client = connectThrough(new HttpProxyHandler(server.localAddress()), "d.example", 443);
            Throwable cause = awaitFailure(client.connect);
            Class<? extends ProxyConnectException> expected =
                    c[1].equals("407") ? ProxyAuthenticationException.class : ProxyRefusedException.class;
            assertEquals(expected, cause.getClass());
            assertEquals("HTTP proxy " + hostPort(server) + " answered " + c[0].substring(9), cause.getMessage());
        }
    }

    @Test
    void tlsRunsThroughASocks5TunnelAndToAnHttpsProxy() throws Exception {
        SelfSignedCertificate cert = new SelfSignedCertificate();
        SslContext server = SslContextBuilder.forServer(cert.key(), cert.certificate()).build();
        SslContext client = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build();
        try {
            // TLS after the proxy handler: its ClientHello waits for the tunnel, then the handshake runs inside it.
            Channel socks = startServer(ScriptedSocks5Server.withTlsTunnel(server).childHandler());
            Client inside = new Client();
            inside.channel = track(await(clientBootstrap().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new Socks5ProxyHandler(socks.localAddress()), client.newHandler(ch.alloc()),
                            inside.bytes);
                }
            }).register()));
            await(inside.channel.connect(InetSocketAddress.createUnresolved("tls.example", 443)));
            await(inside.channel.pipeline().get(SslHandler.class).handshakeFuture());
            await(inside.channel.writeAndFlush(inside.channel.alloc().buffer().writeBytes(PAYLOAD)));
            assertArrayEquals(PAYLOAD, inside.bytes.await(PAYLOAD.length));

            // TLS before the proxy handler: the CONNECT itself goes over TLS to an https:// proxy.
            ScriptedHttpProxy script = ScriptedHttpProxy.answering("HTTP/1.1 200 Connection established");
            Channel https = startServer(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(server.newHandler(ch.alloc()), script.childHandler());
                }
            });
            Client toProxy = new Client();
            toProxy.channel = track(await(clientBootstrap().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(client.newHandler(ch.alloc()), new HttpProxyHandler(https.localAddress()),
                            toProxy.bytes);
                }
            }).register()));
            await(toProxy.channel.connect(InetSocketAddress.createUnresolved("d.example", 80)));
            await(toProxy.channel.writeAndFlush(toProxy.channel.alloc().buffer().writeBytes(PAYLOAD)));
            assertArrayEquals(PAYLOAD, toProxy.bytes.await(PAYLOAD.length));
            assertTrue(take(script.heads()).startsWith("CONNECT d.example:80 HTTP/1.1\r\n"));
        } finally {
            server.close();
            client.close();
        }
    }

    @Test
    void socks_09_anHttpProxyThatNeverAnswersTimesOut() {
        ScriptedHttpProxy script = ScriptedHttpProxy.silentOne();
        Channel server = startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(script.childHandler());
            }
        });
        Client client = connectThrough(new HttpProxyHandler(server.localAddress()).setHandshakeTimeoutMillis(300),
                "d.example", 443);
        assertClosedWith(client, ProxyHandshakeTimeoutException.class,
                "HTTP proxy " + hostPort(server) + " did not finish the handshake within 300 ms (handshakeTimeoutMillis)");
    }
}
