package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;

/**
 * A server restarted on the address it just served binds again (a service restart): over TCP the
 * server closed its connection first, so that connection's server side waits in TIME_WAIT (or
 * FIN_WAIT_2) on the port, which only {@code SO_REUSEADDR} lets a new listener bind over. Every
 * TCP server channel sets it unless {@link ChannelOption#SO_REUSEADDR} is false; with it false,
 * the second bind fails, showing the option is honoured.
 */
abstract class SocketRebindTests extends AbstractSocketTest {

    @Test
    void serverRestartedOnTheAddressItJustServedBindsAgain() throws Exception {
        Channel first = startServer(new CloseOnActive());
        SocketAddress address = first.localAddress();
        if (transport.isInet()) {
            assertEquals(Boolean.TRUE, first.config().getOption(ChannelOption.SO_REUSEADDR),
                    "a TCP server channel sets SO_REUSEADDR by default");
        }
        serveOneConnectionTheServerCloses(first);

        Channel second = track(await(serverBootstrap().childHandler(new CloseOnActive()).bind(address)));
        assertEquals(address, second.localAddress());
        serveOneConnectionTheServerCloses(second); // it serves, not only binds
    }

    @Test
    void reuseAddressOffIsHonouredSoTheRestartCannotBind() throws Exception {
        Assumptions.assumeTrue(transport.isInet(), "TIME_WAIT and SO_REUSEADDR are TCP's");
        ServerBootstrap noReuse = serverBootstrap().option(ChannelOption.SO_REUSEADDR, false)
                .childHandler(new CloseOnActive());
        Channel first = startServer(noReuse);
        assertEquals(Boolean.FALSE, first.config().getOption(ChannelOption.SO_REUSEADDR));
        SocketAddress address = first.localAddress();
        serveOneConnectionTheServerCloses(first);

        Throwable cause = awaitFailure(noReuse.bind(address));
        assertTrue(String.valueOf(cause.getMessage()).toLowerCase().contains("in use"),
                "bind over the connection in TIME_WAIT fails with EADDRINUSE: " + cause);
        assertTrue(cause.getMessage().contains(String.valueOf(((InetSocketAddress) address).getPort())),
                "the message names the port: " + cause.getMessage());
    }

    /** Connects once, waits until the server has closed the connection and the client has too, then closes the server. */
    private void serveOneConnectionTheServerCloses(Channel server) {
        Channel client = connect(server, new ByteCollector());
        await(client.closeFuture()); // the server's FIN closed it: the server's side goes to TIME_WAIT
        await(server.close());
    }

    /** Closes each accepted connection at once, so the server's side is the one that closed first. */
    @ChannelHandler.Sharable
    private static final class CloseOnActive implements ChannelHandler {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.close();
        }
    }
}
