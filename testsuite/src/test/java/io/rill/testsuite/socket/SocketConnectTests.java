package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rill.channel.Channel;
import io.rill.channel.ChannelOption;
import io.rill.channel.ConnectTimeoutException;
import io.rill.util.concurrent.Future;

/** Connect outcomes: refused, timed out, resolved from a name; the failed channel is closed. */
abstract class SocketConnectTests extends AbstractSocketTest {

    @Test
    void connectToAnAddressNobodyListensOnFailsAndClosesTheChannel() throws Exception {
        SocketAddress nobody;
        if (transport.isInet()) {
            try (ServerSocketChannel s = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
                nobody = s.getLocalAddress(); // a port that was free a moment ago and is closed now
            }
        } else {
            nobody = transport.bindAddress().get(); // never bound
        }
        Throwable cause = awaitFailure(clientBootstrap().handler(new ByteCollector()).connect(nobody));
        assertInstanceOf(IOException.class, cause);
        if (transport.isInet()) {
            assertInstanceOf(ConnectException.class, cause);
            assertTrue(cause.getMessage().contains(String.valueOf(((InetSocketAddress) nobody).getPort())),
                    "the message names the address: " + cause.getMessage());
        }
    }

    /**
     * A listener with backlog 1 that never accepts: once its queue is full Linux drops further
     * SYNs, so a connect stays pending and CONNECT_TIMEOUT_MILLIS must fail it. If this machine
     * does not let the queue fill (SYN cookies, another OS), the test falls back to a 1 ms
     * timeout, where a loopback connect may also win the race: then either outcome is accepted,
     * but a failure must still be a well-formed ConnectTimeoutException.
     */
    @Test
    void connectTimeoutFailsAPendingConnectWithConnectTimeoutException() throws Exception {
        Assumptions.assumeTrue(transport.isInet(), "backlog overflow is a TCP behaviour");
        List<SocketChannel> fillers = new ArrayList<>();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress("127.0.0.1", 0), 1);
            boolean full = fillBacklog(listener.getLocalAddress(), fillers);
            int timeoutMillis = full ? 200 : 1;
            Future<Channel> connect = clientBootstrap().handler(new ByteCollector())
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutMillis).connect(listener.getLocalAddress());
            connect.awaitUninterruptibly(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            if (full || !connect.isSuccess()) {
                Throwable cause = awaitFailure(connect);
                assertInstanceOf(ConnectTimeoutException.class, cause);
                assertTrue(cause.getMessage().contains(timeoutMillis + " ms"), cause.getMessage());
            } else {
                track(connect.getNow()); // the 1 ms race was won by the connect: acceptable, see above
            }
        } finally {
            for (SocketChannel s : fillers) {
                s.close();
            }
        }
    }

    /** Connects blocking JDK sockets until one cannot get in; true if the backlog is full. */
    private static boolean fillBacklog(SocketAddress address, List<SocketChannel> fillers) throws IOException {
        for (int i = 0; i < 16; i++) {
            SocketChannel s = SocketChannel.open();
            fillers.add(s);
            try {
                s.socket().connect(address, 250);
            } catch (SocketTimeoutException e) {
                return true;
            }
        }
        return false;
    }

    @Test
    void connectResolvesAnUnresolvedAddressFirst() throws Exception {
        Assumptions.assumeTrue(transport.isInet(), "names resolve to IP addresses");
        Channel server = startServer(new EchoHandler());
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        ByteCollector received = new ByteCollector();
        // A literal resolves without DNS, but still goes through the resolution step.
        Channel client = track(await(clientBootstrap().handler(received)
                .connect(InetSocketAddress.createUnresolved("127.0.0.1", port))));
        await(client.writeAndFlush(SocketEchoTests.copy(client, new byte[] {4, 2}, 0, 2)));
        assertArrayEquals(new byte[] {4, 2}, received.await(2));
    }
}
