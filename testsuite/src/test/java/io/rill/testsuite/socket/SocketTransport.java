package io.rill.testsuite.socket;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import io.rill.bootstrap.ChannelFactory;
import io.rill.bootstrap.ServerChannelFactory;
import io.rill.channel.Channel;
import io.rill.channel.EventLoopGroup;

/**
 * Everything {@link SocketTestSuite} needs to know about a transport. A transport's test is one
 * subclass of the suite returning one of these, e.g.
 * <pre>{@code
 * class NioSocketTest extends SocketTestSuite {
 *     protected SocketTransport transport() {
 *         return new SocketTransport("nio",
 *                 threads -> new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory()),
 *                 NioServerSocketChannel::new, NioSocketChannel::new,
 *                 () -> new InetSocketAddress("127.0.0.1", 0));
 *     }
 * }
 * }</pre>
 *
 * @param name          shown in failure messages and thread names
 * @param groupFactory  a new event loop group of the given number of loops (≥ 1), driven by the
 *                      transport's I/O handler; the suite shuts it down after each test
 * @param serverChannel makes listening channels, as given to {@code ServerBootstrap.channelFactory}
 * @param clientChannel makes client channels, as given to {@code Bootstrap.channelFactory}
 * @param bindAddress   a fresh address for a server to bind to, called once per server: loopback
 *                      with port 0 for IP, a new path for Unix-domain sockets, a new name for an
 *                      in-VM transport. Clients connect to the bound server's {@code localAddress()}.
 *                      Tests that need a TCP peer from the JDK ({@code java.net.Socket}: resets,
 *                      refused connects, backlogs) run only when this is an {@link InetSocketAddress};
 *                      tests of half closure only when the channels are {@code DuplexChannel}s.
 * @param datagramChannel makes IPv4 UDP channels ({@code DatagramChannel}s), or null when the
 *                      transport has none; the datagram group skips itself then
 */
public record SocketTransport(String name,
                              IntFunction<EventLoopGroup> groupFactory,
                              ServerChannelFactory<? extends Channel> serverChannel,
                              ChannelFactory<? extends Channel> clientChannel,
                              Supplier<SocketAddress> bindAddress,
                              ChannelFactory<? extends Channel> datagramChannel) {

    /** A transport without datagrams. */
    public SocketTransport(String name, IntFunction<EventLoopGroup> groupFactory,
                           ServerChannelFactory<? extends Channel> serverChannel,
                           ChannelFactory<? extends Channel> clientChannel, Supplier<SocketAddress> bindAddress) {
        this(name, groupFactory, serverChannel, clientChannel, bindAddress, null);
    }

    /** True if the transport speaks TCP/IP, so JDK sockets can be its peers. */
    public boolean isInet() {
        return bindAddress.get() instanceof InetSocketAddress;
    }

    @Override
    public String toString() {
        return name;
    }
}
