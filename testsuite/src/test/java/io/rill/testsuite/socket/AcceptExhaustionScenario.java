package io.rill.testsuite.socket;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoopGroup;

/**
 * The server of {@link SocketAcceptExhaustionTests}, run in a fresh JVM started under a lowered
 * descriptor limit: an echo server of the given transport, and nothing else. It warms up nothing
 * that Rill itself does not, so whatever an error path loads lazily (a class from a directory, the
 * logger's time-zone table) is loaded while descriptors are gone, as in production.
 *
 * <p>Prints {@code LISTENING <port>} once bound, then runs until its standard input closes.
 * Argument: the name of a {@link SocketTestSuite} subclass, whose transport it uses.
 */
final class AcceptExhaustionScenario {

    /** Far more than the test's connections: a full backlog would drop SYNs and delay the last connect by seconds. */
    static final int BACKLOG = 2048;

    private AcceptExhaustionScenario() {
    }

    public static void main(String[] args) throws Exception {
        var ctor = Class.forName(args[0]).getDeclaredConstructor();
        ctor.setAccessible(true);
        SocketTransport transport = ((SocketTestSuite) ctor.newInstance()).transport();
        EventLoopGroup group = transport.groupFactory().apply(2);
        Channel server = new ServerBootstrap().group(group).channelFactory(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, BACKLOG)
                .childHandler(new Echo())
                .bind(transport.bindAddress().get()).sync().getNow();
        System.out.println("LISTENING " + ((java.net.InetSocketAddress) server.localAddress()).getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // the test closes our input when it is done
        }
        Runtime.getRuntime().halt(0);
    }

    /** Echoes what it reads. */
    @ChannelHandler.Sharable
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }
}
