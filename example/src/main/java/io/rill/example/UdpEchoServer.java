package io.rill.example;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.FixedRecvByteBufAllocator;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.socket.DatagramPacket;
import io.rill.util.InternalLogger;

/**
 * Sends every datagram back to its sender, once: UDP's echo, over NIO or epoll datagram channels.
 * One socket on one event loop serves every peer; nothing is kept between datagrams, so a peer
 * costs nothing once its datagram is answered. Same command line as the TCP servers: it prints
 * {@code Listening on host:port} once bound and stops on SIGTERM or Ctrl-C.
 */
final class UdpEchoServer implements Example {

    /**
     * The largest datagram answered whole. A longer one is cut to this size by the read, as
     * {@code recvfrom(2)} cuts it, and the cut datagram is echoed: a peer learns the limit.
     */
    static final int MAX_DATAGRAM = 2048;

    @Override
    public String name() {
        return "udp-echo";
    }

    @Override
    public String description() {
        return "sends every UDP datagram back to its sender (try: nc -u HOST PORT)";
    }

    @Override
    public List<String> limits() {
        return List.of("a datagram longer than " + MAX_DATAGRAM + " bytes is answered with its first "
                + MAX_DATAGRAM + " bytes; nothing is kept between datagrams");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name());
        Channel socket;
        try {
            socket = new Bootstrap().group(group).channelFactory(Transports.datagramChannel(options))
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM))
                    .handler(new DatagramEcho())
                    .bind(new InetSocketAddress(options.host, options.port)).sync().getNow();
        } catch (Exception e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new StartupFailure("cannot bind UDP " + options.host + ":" + options.port, e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            socket.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }, name() + "-shutdown"));
        System.out.println("Listening on " + options.host + ":" + ((InetSocketAddress) socket.localAddress()).getPort());
        System.out.flush();
        socket.closeFuture().sync();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }

    /**
     * The received buffer goes back out as the answer's content: no copy. One flush per read burst.
     * An error (an ICMP port-unreachable from a peer that left) concerns one peer: the socket stays.
     */
    @ChannelHandler.Sharable
    static final class DatagramEcho implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(DatagramEcho.class);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            ctx.write(new DatagramPacket(packet.content(), packet.sender()), ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("UDP echo on {}: {}", ctx.channel(), cause.toString());
        }
    }
}
