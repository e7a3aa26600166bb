package io.rill.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelOption;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Future;

class BootstrapTest {

    private final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("bootstrap-test", true), NioIoHandler.newFactory());

    @AfterEach
    void stop() {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
    }

    @Test
    void validateSaysWhatIsMissing() {
        IllegalStateException noGroup = assertThrows(IllegalStateException.class,
                () -> new Bootstrap().connect(new InetSocketAddress("127.0.0.1", 1)));
        assertTrue(noGroup.getMessage().startsWith("group not set"), noGroup.getMessage());
        IllegalStateException noChannel = assertThrows(IllegalStateException.class,
                () -> new Bootstrap().group(group).validate());
        assertTrue(noChannel.getMessage().startsWith("channel or channelFactory not set"), noChannel.getMessage());
        IllegalStateException noRemote = assertThrows(IllegalStateException.class,
                () -> new Bootstrap().group(group).channel(NioSocketChannel.class).connect());
        assertTrue(noRemote.getMessage().startsWith("remoteAddress not set"), noRemote.getMessage());
        IllegalStateException noChild = assertThrows(IllegalStateException.class,
                () -> new ServerBootstrap().group(group).channel(NioServerSocketChannel.class).bind(0));
        assertTrue(noChild.getMessage().startsWith("childHandler not set"), noChild.getMessage());
        IllegalStateException noHandler = assertThrows(IllegalStateException.class,
                () -> new Bootstrap().group(group).channel(NioSocketChannel.class).connect(new InetSocketAddress("127.0.0.1", 1)));
        assertTrue(noHandler.getMessage().startsWith("handler not set"), noHandler.getMessage());
    }

    @Test
    void aClassWithoutTheConstructorIsRefusedWhenConfigured() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ServerBootstrap().channel(NioSocketChannel.class));
        assertTrue(e.getMessage().contains("(EventLoop, EventLoopGroup)"), e.getMessage());
    }

    @Test
    void optionValuesOfTheWrongTypeAreRefusedAtOnce() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        ChannelOption<Object> raw = (ChannelOption) ChannelOption.SO_RCVBUF;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Bootstrap().option(raw, "big"));
        assertTrue(e.getMessage().contains("big"), e.getMessage());
    }

    @Test
    void aCloneIsIndependent() {
        Bootstrap original = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.SO_KEEPALIVE, true);
        Bootstrap copy = original.clone().option(ChannelOption.SO_KEEPALIVE, null);
        assertNotSame(original, copy);
        assertTrue(original.toString().contains("SO_KEEPALIVE"));
        assertFalse(copy.toString().contains("SO_KEEPALIVE"));
    }

    @Test
    void serverAndClientApplyOptionsAndTheFailedConnectClosesItsChannel() throws Exception {
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 7).childHandler(new ChannelHandler() { })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        java.net.SocketAddress address = server.localAddress();
        try {
            assertEquals(7, server.config().getOption(ChannelOption.SO_BACKLOG));
            Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(new ChannelHandler() { }).option(ChannelOption.SO_SNDBUF, 65536)
                    .connect(server.localAddress()).sync().getNow();
            assertTrue(client.config().getOption(ChannelOption.SO_SNDBUF) >= 65536, "the socket's own value");
            assertTrue(client.config().getOption(ChannelOption.TCP_NODELAY), "TCP_NODELAY is on by default");
            client.close().sync();
        } finally {
            server.close().sync();
        }
        Future<Channel> refused = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelHandler() { }).connect(address);
        assertTrue(refused.await(10, TimeUnit.SECONDS));
        // Refused, or reset: the JDK closes a selector-registered socket's descriptor only at the
        // loop's next select, so a connect racing with the close may still be queued, then reset.
        assertInstanceOf(java.io.IOException.class, refused.cause(), String.valueOf(refused.cause()));
        assertFalse(group.next().submit(() -> refused.isSuccess()).get());
    }
}
