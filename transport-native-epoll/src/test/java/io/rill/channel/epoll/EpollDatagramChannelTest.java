package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioDatagramChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.socket.DatagramChannel;
import io.rill.channel.socket.DatagramPacket;
import io.rill.util.concurrent.Future;

/** UDP over loopback in batches: both ways with addresses, connected writes, a flood in one flush, multicast. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EpollDatagramChannelTest {

    private EventLoopGroup group;

    @BeforeEach
    void setUp() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        group = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (group != null) {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void packetsTravelBothWaysWithTheirAddresses() throws Exception {
        Received a = new Received();
        Received b = new Received();
        Channel chA = bind(a);
        Channel chB = bind(b);
        await(chA.writeAndFlush(new DatagramPacket(ascii(chA, "ping"), chB.localAddress())));
        assertEquals("ping from " + chA.localAddress(), b.take());
        await(chB.writeAndFlush(new DatagramPacket(ascii(chB, "pong"), chA.localAddress())));
        assertEquals("pong from " + chB.localAddress(), a.take());
    }

    @Test
    void aConnectedChannelWritesPlainBuffersAndAnUnconnectedOneRefusesThem() throws Exception {
        Received b = new Received();
        Channel chA = bind(new Received());
        Channel chB = bind(b);
        ByteBuf bare = ascii(chA, "bare");
        Future<Void> refused = chA.writeAndFlush(bare);
        assertTrue(refused.await(5, TimeUnit.SECONDS));
        assertInstanceOf(UnsupportedOperationException.class, refused.cause());
        await(chA.connect(chB.localAddress()));
        assertTrue(((DatagramChannel) chA).isConnected());
        await(chA.writeAndFlush(ascii(chA, "direct")));
        assertEquals("direct from " + chA.localAddress(), b.take());
        await(chA.disconnect());
        assertTrue(!((DatagramChannel) chA).isConnected());
    }

    /** 200 datagrams flushed at once leave in sendmmsg batches and arrive through recvmmsg batches. */
    @Test
    void aFloodFlushedAtOnceArrivesWhole() throws Exception {
        Received b = new Received();
        Channel chA = bind(new Received());
        Channel chB = bind(b);
        int count = 200;
        Future<Void> last = chA.eventLoop().submit(() -> {
            Future<Void> f = null;
            for (int i = 0; i < count; i++) {
                f = chA.write(new DatagramPacket(ascii(chA, "m" + i), chB.localAddress()));
            }
            chA.flush();
            return f;
        }).get(5, TimeUnit.SECONDS);
        await(last);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < count; i++) {
            seen.add(b.take());
        }
        assertEquals(count, seen.size(), "every datagram once (loopback does not drop 200 small ones)");
    }

    @Test
    void multicastIsReceivedAfterJoinAndNotAfterLeave() throws Exception {
        NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        InetAddress groupAddress = InetAddress.getByName("239.255.27.2");
        Received received = new Received();
        DatagramChannel receiver = (DatagramChannel) new Bootstrap().group(group)
                .channelFactory(l -> new EpollDatagramChannel(l, false)).handler(received)
                .bind(new InetSocketAddress(0)).sync().getNow();
        int port = ((InetSocketAddress) receiver.localAddress()).getPort();
        // The sender is NIO, which can pin IP_MULTICAST_IF to lo: nothing leaves this machine.
        EventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel sender = new Bootstrap().group(nio)
                    .channelFactory(l -> new NioDatagramChannel(l, StandardProtocolFamily.INET))
                    .handler(new Received()).option(ChannelOption.IP_MULTICAST_IF, lo)
                    .option(ChannelOption.IP_MULTICAST_TTL, 0)
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
            await(receiver.joinGroup(groupAddress, lo));
            await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "one"), new InetSocketAddress(groupAddress, port))));
            assertEquals("one from " + sender.localAddress(), received.take());
            await(receiver.leaveGroup(groupAddress, lo));
            await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "two"), new InetSocketAddress(groupAddress, port))));
            // A unicast marker sent after it: if "two" had been delivered it would come first.
            await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "three"),
                    new InetSocketAddress("127.0.0.1", port))));
            assertEquals("three from " + sender.localAddress(), received.take());
        } finally {
            nio.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void anIpv6AddressOnAnIpv4SocketFailsToBindWithAddressFamilyNotSupported() throws Exception {
        // The address is built natively; an address the socket's family cannot hold must come back
        // as that errno, not as a length that bind(2) then misreads.
        Future<Channel> bound = new Bootstrap().group(group).channelFactory(l -> new EpollDatagramChannel(l, false))
                .handler(new Received()).bind(new InetSocketAddress("::1", 0));
        assertTrue(bound.await(5, TimeUnit.SECONDS));
        BindException e = assertInstanceOf(BindException.class, bound.cause());
        assertTrue(e.getMessage().startsWith("Address family not supported"), e.getMessage());
    }

    private Channel bind(ChannelHandler handler) throws Exception {
        return new Bootstrap().group(group).channel(EpollDatagramChannel.class).handler(handler)
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
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
