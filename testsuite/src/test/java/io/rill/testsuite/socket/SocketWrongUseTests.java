package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelOption;
import io.rill.channel.InvalidChannelOptionException;

/**
 * Wrong use fails early and clearly (issue 20): an option value out of range is refused where it
 * is set, for options and child options alike, with an exception naming the option and the value;
 * a bind that fails names the address it could not bind.
 */
abstract class SocketWrongUseTests extends AbstractSocketTest {

    @Test
    void anOutOfRangeChildOptionIsRefusedWhenSetNotOnEveryAcceptedChannel() {
        assertRefused(() -> serverBootstrap().childOption(ChannelOption.SO_RCVBUF, -5), "SO_RCVBUF", "-5");
        assertRefused(() -> serverBootstrap().option(ChannelOption.SO_BACKLOG, -1), "SO_BACKLOG", "-1");
        assertRefused(() -> clientBootstrap().option(ChannelOption.SO_SNDBUF, 0), "SO_SNDBUF", "0");
        assertRefused(() -> clientBootstrap().option(ChannelOption.IP_TOS, 256), "IP_TOS", "256");
    }

    @Test
    void everyChannelOfTheTransportRefusesAnOutOfRangeValueNamingIt() throws Exception {
        BlockingQueue<Channel> children = startServerCollectingChildren(serverBootstrap(), new EchoHandler());
        ByteCollector reply = new ByteCollector();
        Channel client = connect(startedServer, reply);
        Channel child = take(children);
        for (Channel ch : List.of(startedServer, client, child)) {
            assertRefused(() -> ch.config().setOption(ChannelOption.SO_RCVBUF, -5), "SO_RCVBUF", "-5");
            assertRefused(() -> ch.config().setOption(ChannelOption.SO_LINGER, -2), "SO_LINGER", "-2");
            assertRefused(() -> ch.config().setOption(ChannelOption.MAX_MESSAGES_PER_READ, 0),
                    "MAX_MESSAGES_PER_READ", "0");
        }
        // Refusing left the channels as they were.
        await(client.writeAndFlush(Unpooled.copiedBuffer("ok", StandardCharsets.US_ASCII)));
        assertEquals("ok", new String(reply.await(2), StandardCharsets.US_ASCII));
    }

    @Test
    void aBindThatFailsNamesTheAddressItCouldNotBind() {
        Channel first = startServer(new ChannelHandler() { });
        Throwable cause = awaitFailure(serverBootstrap().childHandler(new ChannelHandler() { })
                .bind(first.localAddress()));
        assertInstanceOf(BindException.class, cause);
        assertTrue(cause.getMessage().contains(first.localAddress().toString()),
                "'" + cause.getMessage() + "' does not name " + first.localAddress());
    }

    private static void assertRefused(Executable setting, String option, String value) {
        InvalidChannelOptionException e = assertThrows(InvalidChannelOptionException.class, setting);
        assertEquals(option, e.option());
        assertEquals(value, e.value());
        assertTrue(e.getMessage().contains(option + ": " + value), e.getMessage());
    }
}
