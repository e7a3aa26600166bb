package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.FixedRecvByteBufAllocator;
import io.rill.channel.socket.DatagramChannel;
import io.rill.channel.socket.DatagramPacket;
import io.rill.util.concurrent.Future;

/**
 * UDP over loopback for transports that have datagram channels: packets carry their sender,
 * connected channels write bare buffers, multicast join/leave on {@code lo}, every payload size up
 * to the receive buffer echoes intact, larger datagrams need a larger receive buffer, and an ICMP
 * "port unreachable" is reported (on a read or a write) without closing the channel.
 */
abstract class SocketDatagramTests extends AbstractSocketTest {

    private static final InetAddress GROUP = address("239.255.27.1");

    @BeforeEach
    void requireDatagrams() {
        assumeTrue(transport.datagramChannel() != null, transport + " has no datagram channels");
    }

    @Test
    void packetsTravelBothWaysWithTheirSenders() throws Exception {
        Received a = new Received();
        Received b = new Received();
        Channel chA = bind(a, loopback());
        Channel chB = bind(b, loopback());
        await(chA.writeAndFlush(new DatagramPacket(ascii(chA, "ping"), chB.localAddress())));
        assertEquals("ping from " + chA.localAddress(), b.takeText());
        await(chB.writeAndFlush(new DatagramPacket(ascii(chB, "pong"), chA.localAddress())));
        assertEquals("pong from " + chB.localAddress(), a.takeText());
    }

    @Test
    void aConnectedChannelWritesBareBuffersAndAnUnconnectedOneRefusesAndReleasesThem() throws Exception {
        Received b = new Received();
        Channel chA = bind(new Received(), loopback());
        Channel chB = bind(b, loopback());
        ByteBuf bare = ascii(chA, "bare");
        Throwable refused = awaitFailure(chA.writeAndFlush(bare));
        assertInstanceOf(UnsupportedOperationException.class, refused);
        assertEquals(0, (int) await(chA.eventLoop().submit(bare::refCnt)), "the refused buffer was released");

        await(chA.connect(chB.localAddress()));
        assertTrue(((DatagramChannel) chA).isConnected());
        await(chA.writeAndFlush(ascii(chA, "direct")));
        assertEquals("direct from " + chA.localAddress(), b.takeText());
    }

    @Test
    void everyPayloadSizeUpToTheReceiveBufferEchoesIntact() throws Exception {
        Channel echo = bind(new Echo(), loopback());
        Received received = new Received();
        Channel client = bind(received, loopback());
        Random random = new Random(27);
        int[] sizes = new int[300];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = i < 3 ? new int[] {0, 1, 2048}[i] : random.nextInt(2049);
        }
        for (int size : sizes) {
            byte[] payload = new byte[size];
            random.nextBytes(payload);
            await(client.writeAndFlush(new DatagramPacket(client.alloc().buffer(size).writeBytes(payload),
                    echo.localAddress())));
            assertArrayEquals(payload, received.takeBytes(), "payload of " + size + " bytes");
        }
    }

    @Test
    void aDatagramLargerThanTheDefaultBufferArrivesWholeWithALargerOne() throws Exception {
        Received received = new Received();
        Channel receiver = track(await(datagramBootstrap(received)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(65536))
                .option(ChannelOption.SO_RCVBUF, 1 << 18).bind(loopback())));
        Channel sender = bind(new Received(), loopback());
        byte[] payload = new byte[60_000];
        new Random(3).nextBytes(payload);
        await(sender.writeAndFlush(new DatagramPacket(sender.alloc().buffer(payload.length).writeBytes(payload),
                receiver.localAddress())));
        assertArrayEquals(payload, received.takeBytes());
    }

    @Test
    void portUnreachableOnAConnectedChannelIsReportedAndTheChannelStaysOpen() throws Exception {
        Channel gone = bind(new Received(), loopback());
        SocketAddress goneAddress = gone.localAddress();
        await(gone.close());
        Received received = new Received();
        Channel ch = bind(received, loopback());
        await(ch.connect(goneAddress));
        // The kernel answers with ICMP port unreachable; a connected socket reports it on its next
        // system call, a receive (exceptionCaught) or a send (the write fails), whichever comes first.
        // Write until it shows (the first write can race the ICMP).
        Throwable error = null;
        for (int i = 0; i < 50 && error == null; i++) {
            Future<Void> write = ch.writeAndFlush(ascii(ch, "anyone?"));
            assertTrue(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            error = write.isSuccess() ? received.errors.poll(100, TimeUnit.MILLISECONDS) : write.cause();
        }
        assertTrue(error instanceof java.io.IOException, "expected an IOException, got " + error);
        assertTrue(ch.isOpen(), "UDP goes on after an ICMP error");
        Channel peer = bind(new Echo(), loopback());
        await(ch.disconnect());
        await(ch.writeAndFlush(new DatagramPacket(ascii(ch, "still here"), peer.localAddress())));
        assertEquals("still here from " + peer.localAddress(), received.takeText());
    }

    @Test
    void multicastIsReceivedAfterJoinAndNotAfterLeave() throws Exception {
        NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        Received received = new Received();
        // Wildcard bind: a socket bound to 127.0.0.1 would not receive group traffic. Nothing leaves lo.
        DatagramChannel receiver = (DatagramChannel) bind(received, new InetSocketAddress(0));
        int port = ((InetSocketAddress) receiver.localAddress()).getPort();
        Channel sender = track(await(datagramBootstrap(new Received())
                .option(ChannelOption.IP_MULTICAST_IF, lo).option(ChannelOption.IP_MULTICAST_TTL, 0)
                .option(ChannelOption.IP_MULTICAST_LOOP_DISABLED, false).bind(loopback())));
        assertFalse(sender.config().getOption(ChannelOption.IP_MULTICAST_LOOP_DISABLED));
        InetSocketAddress groupAddress = new InetSocketAddress(GROUP, port);

        await(receiver.joinGroup(GROUP, lo));
        await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "one"), groupAddress)));
        assertEquals("one from " + sender.localAddress(), received.takeText());

        await(receiver.leaveGroup(GROUP, lo));
        await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "two"), groupAddress)));
        // A unicast marker sent after it: had "two" been delivered, it would come first.
        await(sender.writeAndFlush(new DatagramPacket(ascii(sender, "three"), new InetSocketAddress("127.0.0.1", port))));
        assertEquals("three from " + sender.localAddress(), received.takeText());
    }

    private Bootstrap datagramBootstrap(ChannelHandler handler) {
        return new Bootstrap().group(group).channelFactory(transport.datagramChannel()).handler(handler)
                .option(ChannelOption.SO_REUSEADDR, true);
    }

    private Channel bind(ChannelHandler handler, InetSocketAddress address) {
        return track(await(datagramBootstrap(handler).bind(address)));
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress("127.0.0.1", 0);
    }

    private static ByteBuf ascii(Channel ch, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
        return ch.alloc().buffer(bytes.length).writeBytes(bytes);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** Sends every packet back to its sender. */
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            ctx.write(new DatagramPacket(packet.content(), packet.sender()));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Queues each packet's payload and sender (released at once) and every exception. */
    private static final class Received implements ChannelHandler {
        private final BlockingQueue<DatagramPacket> packets = new LinkedBlockingQueue<>();
        final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            // Copied out and released on the loop; the queue holds only unpooled heap copies.
            ByteBuf copy = io.rill.buffer.Unpooled.wrappedBuffer(ByteBufUtil.getBytes(packet.content()));
            packets.add(new DatagramPacket(copy, packet.recipient(), packet.sender()));
            packet.release();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }

        byte[] takeBytes() throws InterruptedException {
            DatagramPacket p = take(packets);
            byte[] bytes = ByteBufUtil.getBytes(p.content());
            p.release();
            return bytes;
        }

        String takeText() throws InterruptedException {
            DatagramPacket p = take(packets);
            String s = p.content().toString(StandardCharsets.US_ASCII) + " from " + p.sender();
            p.release();
            return s;
        }
    }
}
