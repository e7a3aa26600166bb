package io.rill.testsuite.socket;

import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.local.LocalAddress;
import io.rill.channel.local.LocalChannel;
import io.rill.channel.local.LocalIoHandler;
import io.rill.channel.local.LocalServerChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/** The socket suite over the in-VM local transport; TCP, half-closure and file-region groups skip themselves. */
class LocalSocketTest extends SocketTestSuite {

    @Override
    protected SocketTransport transport() {
        return new SocketTransport("local",
                threads -> new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("local", true),
                        LocalIoHandler.newFactory()),
                LocalServerChannel::new, LocalChannel::new, () -> LocalAddress.ANY);
    }
}
