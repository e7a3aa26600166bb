package io.rill.testsuite.socket;

import static io.rill.testsuite.socket.LifecycleLog.FULL;
import static io.rill.testsuite.socket.LifecycleLog.NEVER_ACTIVE;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;

import org.junit.jupiter.api.Test;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;

/**
 * Each channel sees registered, active, inactive, unregistered exactly once and in that order,
 * whichever path made it active (registration of an accepted channel, a bind, a connect); a
 * channel that never became active sees neither active nor inactive (a failed bind or connect, a
 * close while it registered).
 */
abstract class SocketLifecycleTests extends AbstractSocketTest {

    @Test
    void serverChannelSeesEachEventOnce() throws Exception {
        LifecycleLog log = new LifecycleLog();
        Channel server = startServer(serverBootstrap().handler(log).childHandler(new ChannelHandler() { }));
        await(server.close());
        log.assertSaw(server, FULL);
    }

    @Test
    void acceptedAndClientChannelsSeeEachEventOnce() throws Exception {
        LifecycleLog childLog = new LifecycleLog();
        LifecycleLog clientLog = new LifecycleLog();
        Channel server = startServer(childLog);
        Channel client = connect(server, clientLog);
        Channel child = track(childLog.next());
        await(client.close());
        clientLog.assertSaw(client, FULL);
        childLog.assertSaw(child, FULL); // it closes on the client's end of stream
    }

    @Test
    void serverThatCannotBindIsNeverActive() throws Exception {
        Channel first = startServer(new ChannelHandler() { });
        LifecycleLog log = new LifecycleLog();
        awaitFailure(serverBootstrap().handler(log).childHandler(new ChannelHandler() { }).bind(first.localAddress()));
        log.assertSaw(log.next(), NEVER_ACTIVE);
    }

    @Test
    void clientThatCannotConnectIsNeverActive() throws Exception {
        LifecycleLog log = new LifecycleLog();
        if (transport.isInet()) {
            // A port held by a socket that is bound but not listening refuses connections, and
            // unlike a closed one cannot be taken meanwhile by another process on this machine.
            try (SocketChannel holder = SocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
                awaitFailure(clientBootstrap().handler(log).connect(holder.getLocalAddress()));
            }
        } else {
            Channel gone = startServer(new ChannelHandler() { });
            SocketAddress address = gone.localAddress();
            await(gone.close());
            awaitFailure(clientBootstrap().handler(log).connect(address));
        }
        log.assertSaw(log.next(), NEVER_ACTIVE);
    }

    @Test
    void serverClosedWhileRegisteringIsNeverActive() throws Exception {
        LifecycleLog log = new LifecycleLog(true);
        awaitFailure(serverBootstrap().handler(log).childHandler(new ChannelHandler() { })
                .bind(transport.bindAddress().get()));
        log.assertSaw(log.next(), NEVER_ACTIVE);
    }

    @Test
    void clientClosedWhileRegisteringIsNeverActive() throws Exception {
        Channel server = startServer(new ChannelHandler() { });
        LifecycleLog log = new LifecycleLog(true);
        awaitFailure(clientBootstrap().handler(log).connect(server.localAddress()));
        log.assertSaw(log.next(), NEVER_ACTIVE);
    }

    @Test
    void acceptedChannelClosedWhileRegisteringIsNeverActive() throws Exception {
        LifecycleLog childLog = new LifecycleLog(true);
        Channel server = startServer(childLog);
        Channel client = connect(server, new ChannelHandler() { });
        childLog.assertSaw(childLog.next(), NEVER_ACTIVE);
        await(client.closeFuture()); // the server's close reaches the client
    }
}
