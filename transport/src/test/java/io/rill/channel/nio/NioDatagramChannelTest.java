package io.rill.channel.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.socket.DatagramChannel;
import io.rill.channel.socket.DatagramPacket;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Future;

/** UDP over loopback: packets both ways, connected writes, and multicast join/leave on {@code lo}. */
@Timeout(30)
class NioDatagramChannelTest {

    private static final InetAddress GROUP = address("239.255.27.1");

    private final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("udp-test", true), NioIoHandler.newFactory());

    @AfterEach
    void stop() {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
    }

    @Test
    void packetsTravelBothWaysWithTheirAddresses() throws Exception {
        Received a = new Received();
        Received b = new Received();
        Channel chA = bind(a, new InetSocketAddress("127.0.0.1", 0));
        Channel chB = bind(b, new InetSocketAddress("127.0.0.1", 0));
        await(chA.writeAndFlush(new DatagramPacket(ascii(chA, "ping"), chB.localAddress())));
        assertEquals("ping from " + chA.localAddress(), b.take());
        await(chB.writeAndFlush(new DatagramPacket(ascii(chB, "pong"), chA.localAddress())));
        assertEquals("pong from " + chB.localAddress(), a.take());
        chA.close().sync();
        chB.close().sync();
    }

    @Test
    void aConnectedChannelWritesPlainBuffersAndAnUnconnectedOneRefusesThem() throws Exception {
        Received b = new Received();
        Channel chA = bind(new Received(), new InetSocketAddress("127.0.0.1", 0));
        Channel chB = bind(b, new InetSocketAddress("127.0.0.1", 0));
        ByteBuf bare = ascii(chA, "bare");
        Future<Void> refused = chA.writeAndFlush(bare);
        assertTrue(refused.await(5, TimeUnit.SECONDS));
        assertInstanceOf(UnsupportedOperationException.class, refused.cause());
        assertEquals(0, (int) chA.eventLoop().submit(bare::refCnt).get(5, TimeUnit.SECONDS), "refused buffer released");

        await(chA.connect(chB.localAddress()));
        assertTrue(((DatagramChannel) chA).isConnected());
        await(chA.writeAndFlush(ascii(chA, "direct")));
        assertEquals("direct from " + chA.localAddress(), b.take());
        chA.close().sync();
        chB.close().sync();
    }

    @Test
    void multicastIsReceivedAfterJoinAndNotAfterLeave() throws Exception {
        NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        Received received = new Received();
        // Wildcard bind: a socket bound to 127.0.0.1 would not receive group traffic. Nothing leaves lo.
        DatagramChannel receiver = (DatagramChannel) bind(received, new InetSocketAddress(0));
        int port = ((InetSocketAddress) receiver.localAddress()).getPort();
        Channel sender = new Bootstrap().group(group).channelFactory(l -> new NioDatagramChannel(l, StandardProtocolFamily.INET))
                .handler(new Received()).option(ChannelOption.IP_MULTICAST_IF, lo).option(ChannelOption.IP_MULTICAST_TTL, 0)
                .option(ChannelOption.IP_MULTICAST_LOOP_DISABLED, false)
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        assertFalse(sender.config().getOption(ChannelOption.IP_MULTICAST_LOOP_DISABLED));
        InetSocketAddress groupAddress = new InetSocketAddress(GROUP, port);

        await(receiver.joinGroup(GROUP, lo));
        await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "one"), groupAddress)));
        assertEquals("one from " + sender.localAddress(), received.take());

        await(receiver.leaveGroup(GROUP, lo));
        await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "two"), groupAddress)));
        // A unicast marker sent after it: if "two" had been delivered it would come first.
        await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "three"), new InetSocketAddress("127.0.0.1", port))));
        assertEquals("three from " + sender.localAddress(), received.take());
        sender.close().sync();
        receiver.close().sync();
    }

    private Channel bind(ChannelHandler handler, InetSocketAddress address) throws Exception {
        return new Bootstrap().group(group).channelFactory(l -> new NioDatagramChannel(l, StandardProtocolFamily.INET))
                .handler(handler).option(ChannelOption.SO_REUSEADDR, true).bind(address).sync().getNow();
    }

    private static void await(Future<?> f) throws Exception {
        assertTrue(f.await(5, TimeUnit.SECONDS), "not done: " + f);
        if (!f.isSuccess()) {
            throw new AssertionError(f.cause());
        }
    }

    private static ByteBuf ascii(Channel ch, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
        return ch.alloc().buffer(bytes.length).writeBytes(bytes);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** "payload from sender" per packet, released at once. */
    private static final class Received implements ChannelHandler {
        private final BlockingQueue<String> packets = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                packets.add(packet.content().toString(StandardCharsets.US_ASCII) + " from " + packet.sender());
            } finally {
                packet.release();
            }
        }

        String take() throws InterruptedException {
            String s = packets.poll(5, TimeUnit.SECONDS);
            assertTrue(s != null, "no datagram arrived");
            return s;
        }
    }
}
