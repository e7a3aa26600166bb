package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.socket.ChannelInputShutdownEvent;
import io.rill.channel.socket.ChannelInputShutdownReadComplete;
import io.rill.channel.socket.ChannelOutputShutdownEvent;
import io.rill.channel.socket.DuplexChannel;
import io.rill.util.concurrent.Promise;

/**
 * End of stream from the peer: closes the channel, or with ALLOW_HALF_CLOSURE shuts input only
 * and fires the input-shutdown events; and the half-close-then-reset sequence of CVE-2026-42577
 * (docs/security-cases.md, case R-01), which must close the channel and leave the loop idle.
 */
abstract class SocketHalfClosureTests extends AbstractSocketTest {

    @BeforeEach
    void requireDuplexChannels() {
        Channel probe;
        try {
            probe = transport.clientChannel().newChannel(group.next());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        boolean duplex = probe instanceof DuplexChannel;
        probe.close();
        Assumptions.assumeTrue(duplex, transport + " has no half closure");
    }

    @Test
    void endOfStreamClosesTheChannelWithoutHalfClosure() throws Exception {
        EventRecorder serverEvents = new EventRecorder();
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(), serverEvents);
        DuplexChannel client = (DuplexChannel) connect(startedServer, new ByteCollector());
        Channel child = take(accepted);
        await(client.shutdownOutput());
        await(child.closeFuture());
        assertTrue(serverEvents.userEvents.isEmpty(), "no half-closure events: " + serverEvents.userEvents);
        await(client.closeFuture()); // the server's close reaches the client as end of stream
    }

    /**
     * A handler may finish what it was doing before the close that end of stream asks for goes
     * through (HTTP/2 serves its open streams first); meanwhile the socket, readable for ever at
     * end of stream, must not be watched, or the loop spins until the close.
     */
    @Test
    void endOfStreamWithoutHalfClosureStopsReadingWhileAHandlerHoldsTheClose() throws Exception {
        CompletableFuture<Runnable> closeAsked = new CompletableFuture<>();
        ChannelHandler holdClose = new ChannelHandler() {
            @Override
            public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
                closeAsked.complete(() -> ctx.close(promise));
            }
        };
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(), holdClose);
        DuplexChannel client = (DuplexChannel) connect(startedServer, new ByteCollector());
        Channel child = take(accepted);
        await(client.shutdownOutput());
        Runnable close = closeAsked.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        LoopIdleCheck.assertIdle(child.eventLoop());
        child.eventLoop().execute(close);
        await(child.closeFuture());
    }

    @Test
    void endOfStreamWithHalfClosureFiresInputShutdownEventsAndTheChannelCanStillWrite() throws Exception {
        EventRecorder serverEvents = new EventRecorder();
        ChannelHandler replyOnEnd = new ChannelHandler() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt == ChannelInputShutdownReadComplete.INSTANCE) {
                    ctx.writeAndFlush(ascii(ctx.channel(), "bye")).addListener(f -> ctx.close());
                }
            }
        };
        BlockingQueue<Channel> accepted = startServerCollectingChildren(
                serverBootstrap().childOption(ChannelOption.ALLOW_HALF_CLOSURE, true),
                serverEvents, new EchoHandler(), replyOnEnd);
        ByteCollector received = new ByteCollector();
        DuplexChannel client = (DuplexChannel) connect(startedServer, received);
        DuplexChannel child = (DuplexChannel) take(accepted);
        await(client.writeAndFlush(ascii(client, "hello")));
        assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), received.await(5));
        await(client.shutdownOutput());
        assertSame(ChannelInputShutdownEvent.INSTANCE, take(serverEvents.userEvents));
        assertSame(ChannelInputShutdownReadComplete.INSTANCE, take(serverEvents.userEvents));
        assertTrue(child.isInputShutdown());
        assertArrayEquals("hellobye".getBytes(StandardCharsets.US_ASCII), received.await(8));
        await(child.closeFuture());
        await(client.closeFuture());
    }

    @Test
    void shutdownOutputFiresItsEventAndRefusesLaterWrites() throws Exception {
        // The server keeps its side open; without half closure its close would end our input and close us.
        Channel server = startServer(serverBootstrap().childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new EchoHandler()));
        EventRecorder clientEvents = new EventRecorder();
        DuplexChannel client = (DuplexChannel) track(await(clientBootstrap().handler(clientEvents)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true).connect(server.localAddress())));
        await(client.shutdownOutput());
        assertTrue(client.isOutputShutdown());
        assertSame(ChannelOutputShutdownEvent.INSTANCE, take(clientEvents.userEvents));
        ByteBuf late = ascii(client, "late");
        Throwable refused = awaitFailure(client.writeAndFlush(late));
        assertInstanceOf(ClosedChannelException.class, refused);
        assertTrue(refused.getMessage().contains("output was shut down"), refused.getMessage());
        // The promise fails just before the buffer is released, on the loop: look after that task.
        assertEquals(0, client.eventLoop().submit(late::refCnt).get(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "the refused buffer was released");
    }

    @Test
    void halfCloseThenResetClosesTheServerChannelAndTheLoopStaysIdle() throws Exception {
        halfCloseThenReset(false);
    }

    /**
     * With half closure the channel has stopped watching input at the FIN (it would be readable
     * forever), so NIO cannot see the RST until it writes; a server answers at end of input and
     * then closes, which is what this server does. Either way: closed, and the loop idle.
     */
    @Test
    void halfCloseThenResetWithHalfClosureClosesTheServerChannelAndTheLoopStaysIdle() throws Exception {
        halfCloseThenReset(true);
    }

    private void halfCloseThenReset(boolean allowHalfClosure) throws Exception {
        Assumptions.assumeTrue(transport.isInet(), "needs a JDK TCP peer");
        ChannelHandler answerThenClose = new ChannelHandler() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt == ChannelInputShutdownReadComplete.INSTANCE) {
                    ctx.writeAndFlush(ascii(ctx.channel(), "answer")).addListener(f -> ctx.close());
                }
            }
        };
        BlockingQueue<Channel> accepted = startServerCollectingChildren(
                serverBootstrap().childOption(ChannelOption.ALLOW_HALF_CLOSURE, allowHalfClosure),
                new EchoHandler(), answerThenClose);
        InetSocketAddress address = (InetSocketAddress) startedServer.localAddress();
        Channel child;
        try (Socket peer = new Socket(address.getAddress(), address.getPort())) {
            child = take(accepted);
            peer.getOutputStream().write(new byte[] {1, 2, 3});
            peer.shutdownOutput(); // FIN
            peer.setSoLinger(true, 0);
        } // close with SO_LINGER 0: RST
        await(child.closeFuture());
        LoopIdleCheck.assertIdle(child.eventLoop());
    }

    static ByteBuf ascii(Channel ch, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
        return ch.alloc().buffer(bytes.length).writeBytes(bytes);
    }
}
