package io.rill.jpmstest;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.dns.DnsMessage;
import io.rill.handler.codec.dns.DnsMessageDecoder;
import io.rill.handler.codec.dns.DnsMessageEncoder;
import io.rill.handler.codec.dns.DnsQuestion;
import io.rill.handler.codec.dns.DnsRecordType;
import io.rill.handler.codec.haproxy.HAProxyMessage;
import io.rill.handler.codec.haproxy.HAProxyMessageDecoder;
import io.rill.handler.codec.haproxy.HAProxyMessageEncoder;
import io.rill.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.socks.Socks5AddressType;
import io.rill.handler.codec.socks.Socks5AuthMethod;
import io.rill.handler.codec.socks.Socks5CommandRequest;
import io.rill.handler.codec.socks.Socks5CommandRequestDecoder;
import io.rill.handler.codec.socks.Socks5CommandResponse;
import io.rill.handler.codec.socks.Socks5CommandStatus;
import io.rill.handler.codec.socks.Socks5InitialRequest;
import io.rill.handler.codec.socks.Socks5InitialRequestDecoder;
import io.rill.handler.codec.socks.Socks5InitialResponse;
import io.rill.handler.codec.socks.SocksMessageEncoder;
import io.rill.handler.proxy.Socks5ProxyHandler;

/**
 * The client-side modules on the module path: an HTTP/1.1 exchange that starts with a PROXY
 * protocol v1 header (codec-haproxy) and goes through a SOCKS5 handshake (handler-proxy and
 * codec-socks) with a server that is both the proxy and the destination, the destination's name
 * resolved by the default resolver (resolver); and a DNS query through the DNS codec
 * (resolver-dns) and back.
 */
final class ProxiedRoundTrip {

    /** The client address the PROXY header claims; the server answers only when it arrives. */
    private static final String CLAIMED_CLIENT = "192.0.2.7";
    private static final long TIMEOUT_SECONDS = 20;

    private ProxiedRoundTrip() {
    }

    static String run(Transport transport) throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, transport.ioHandlerFactory());
        try {
            Channel server = await(new ServerBootstrap().group(group).channelFactory(transport.serverChannel())
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HAProxyMessageDecoder(), new ProxyHeaderCheck());
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).toCompletableFuture());
            try {
                InetSocketAddress proxy = (InetSocketAddress) server.localAddress();
                return exchange(group, transport, proxy) + ", " + dnsQuery();
            } finally {
                await(server.close().toCompletableFuture());
            }
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private static String exchange(MultiThreadIoEventLoopGroup group, Transport transport, InetSocketAddress proxy)
            throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        Channel client = await(new Bootstrap().group(group).channelFactory(transport.clientChannel())
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(HAProxyMessageEncoder.INSTANCE, new ProxyHeaderSender(),
                                new Socks5ProxyHandler(proxy), new HttpClientCodec(), new HttpObjectAggregator(1024),
                                new HttpRoundTrip.Receiver(answer));
                    }
                })
                .connect("localhost", 80).toCompletableFuture());
        try {
            byte[] body = "ping".getBytes(StandardCharsets.US_ASCII);
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/upper",
                    Unpooled.wrappedBuffer(body));
            request.headers().set(HttpHeaderNames.HOST, "localhost").setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            client.writeAndFlush(request);
            String got = await(answer);
            if (!got.equals("PING")) {
                throw new IllegalStateException("expected PING, got " + got);
            }
            return got + " through SOCKS5 after a PROXY header";
        } finally {
            await(client.close().toCompletableFuture());
        }
    }

    private static String dnsQuery() {
        DnsMessage query = DnsMessage.query(0x2a2a, DnsQuestion.in("www.example.com.", DnsRecordType.A), 1232);
        ByteBuf wire = Unpooled.buffer();
        try {
            DnsMessageEncoder.encode(query, wire);
            DnsMessage back = DnsMessageDecoder.decode(wire);
            if (!back.equals(query)) {
                throw new IllegalStateException("the DNS query changed on its way: " + back);
            }
            return "a DNS query of " + back.questions().get(0).name();
        } finally {
            wire.release();
        }
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Sends the PROXY header before anything else, the SOCKS5 greeting included. */
    private static final class ProxyHeaderSender implements ChannelHandler {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.write(HAProxyMessage.v1(HAProxyProxiedProtocol.TCP4, CLAIMED_CLIENT, "127.0.0.1", 40000, 80));
            ctx.fireChannelActive();
        }
    }

    /**
     * Goes on to the SOCKS5 handshake once the PROXY header names the claimed client; the decoder
     * hands the header over as a user event, before the bytes behind it.
     */
    private static final class ProxyHeaderCheck implements ChannelHandler {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (!(evt instanceof HAProxyMessage header)) {
                ctx.fireUserEventTriggered(evt);
            } else if (CLAIMED_CLIENT.equals(header.sourceAddress())) {
                ctx.pipeline().replace(this, null, new SocksEnd());
                ctx.pipeline().addBefore(ctx.pipeline().context(SocksEnd.class).name(), null,
                        new Socks5InitialRequestDecoder());
                ctx.pipeline().addFirst(SocksMessageEncoder.INSTANCE);
            } else {
                refuse(ctx, "not the PROXY header expected: " + header);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            refuse(ctx, "bytes before the PROXY header was checked");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            refuse(ctx, cause.toString());
        }
    }

    /** The server says why it closes, which the client's failure alone would not tell. */
    private static void refuse(ChannelHandlerContext ctx, String why) {
        System.out.println("the proxy closes the connection: " + why);
        ctx.close();
    }

    /** The proxy's side of the handshake; it then answers HTTP itself, as the destination. */
    private static final class SocksEnd implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Socks5InitialRequest) {
                ctx.pipeline().addBefore(ctx.name(), null, new Socks5CommandRequestDecoder());
                ctx.writeAndFlush(new Socks5InitialResponse(Socks5AuthMethod.NO_AUTH));
            } else if (msg instanceof Socks5CommandRequest) {
                ctx.writeAndFlush(new Socks5CommandResponse(Socks5CommandStatus.SUCCESS, Socks5AddressType.IPV4,
                        "127.0.0.1", 80));
                ctx.pipeline().remove(SocksMessageEncoder.INSTANCE);
                ctx.pipeline().replace(this, null, new HttpServerCodec());
                ctx.pipeline().addLast(new HttpObjectAggregator(1024), new HttpRoundTrip.UpperCaser());
            } else {
                refuse(ctx, "not a SOCKS5 message: " + msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            refuse(ctx, cause.toString());
        }
    }
}
