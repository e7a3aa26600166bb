package io.rill.testsuite.socket;

import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;

import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioDatagramChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/** The socket suite over NIO TCP (and UDP) on 127.0.0.1. */
class NioSocketTest extends SocketTestSuite {

    @Override
    protected SocketTransport transport() {
        return new SocketTransport("nio-tcp",
                threads -> new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("nio-tcp", true),
                        NioIoHandler.newFactory()),
                NioServerSocketChannel::new, NioSocketChannel::new,
                () -> new InetSocketAddress("127.0.0.1", 0),
                loop -> new NioDatagramChannel(loop, StandardProtocolFamily.INET));
    }
}
