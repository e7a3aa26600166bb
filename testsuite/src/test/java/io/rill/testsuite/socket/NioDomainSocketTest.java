package io.rill.testsuite.socket;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioDomainSocketChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerDomainSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/** The socket suite over NIO Unix-domain stream sockets, each server on a fresh path in the temp directory. */
class NioDomainSocketTest extends SocketTestSuite {

    private static final AtomicInteger SERIAL = new AtomicInteger();

    @Override
    protected SocketTransport transport() {
        return new SocketTransport("nio-unix",
                threads -> new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("nio-unix", true),
                        NioIoHandler.newFactory()),
                NioServerDomainSocketChannel::new, NioDomainSocketChannel::new,
                // Short names: a socket path is limited to ~107 bytes. The server deletes it on close.
                () -> UnixDomainSocketAddress.of(Path.of(System.getProperty("java.io.tmpdir"),
                        "rill-" + ProcessHandle.current().pid() + "-" + SERIAL.incrementAndGet() + ".sock")));
    }
}
