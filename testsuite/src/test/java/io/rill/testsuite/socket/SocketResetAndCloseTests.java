package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.util.concurrent.Future;

/**
 * Connections that end badly: a peer reset, a close while megabytes are still queued, a handler
 * that throws. Every pending write fails, every buffer is released (leak detection is PARANOID),
 * and other channels carry on.
 */
abstract class SocketResetAndCloseTests extends AbstractSocketTest {

    private static final int CHUNK = 1 << 20;

    @Test
    void peerResetDuringAPendingWriteClosesTheChannelAndFailsTheWrite() throws Exception {
        Assumptions.assumeTrue(transport.isInet(), "needs a JDK TCP peer that can reset");
        EventRecorder events = new EventRecorder();
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(), events);
        InetSocketAddress address = (InetSocketAddress) startedServer.localAddress();
        Channel child;
        List<Future<Void>> writes;
        try (Socket peer = new Socket(address.getAddress(), address.getPort())) {
            child = take(accepted);
            // The peer never reads: after a few MiB the kernel buffers are full and the rest stays queued.
            writes = child.eventLoop().submit(() -> writeChunks(child, 32)).get();
            assertFalse(writes.get(writes.size() - 1).isDone(), "the last write is still pending");
            peer.setSoLinger(true, 0);
        } // RST
        await(child.closeFuture());
        Throwable cause = awaitFailure(writes.get(writes.size() - 1));
        assertInstanceOf(IOException.class, cause); // reset, broken pipe or closed: all I/O errors
        assertTrue(child.eventLoop().submit(() -> child.isOpen()).get() == Boolean.FALSE);
    }

    /**
     * A server logs who went away in channelInactive. The epoll transport builds an accepted
     * channel's addresses only when asked (they cost heap per idle connection), so this asks
     * first after the peer's reset, when the kernel no longer reports the peer.
     */
    @Test
    void addressesFirstAskedInChannelInactiveAfterAPeerResetAreThePeersAndTheServers() throws Exception {
        Assumptions.assumeTrue(transport.isInet(), "needs a JDK TCP peer that can reset");
        CompletableFuture<SocketAddress[]> seen = new CompletableFuture<>();
        startServer(serverBootstrap().childHandler(new ChannelHandler() {
            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                seen.complete(new SocketAddress[] {ctx.channel().remoteAddress(), ctx.channel().localAddress()});
            }
        }));
        InetSocketAddress address = (InetSocketAddress) startedServer.localAddress();
        SocketAddress peerAddress;
        try (Socket peer = new Socket(address.getAddress(), address.getPort())) {
            peerAddress = peer.getLocalSocketAddress();
            peer.setSoLinger(true, 0);
        } // RST
        SocketAddress[] addresses = seen.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(peerAddress, addresses[0], "remoteAddress() in channelInactive");
        assertEquals(address, addresses[1], "localAddress() in channelInactive");
    }

    @Test
    void closeDuringALargeWriteFailsThePendingWritesWithClosedChannelException() throws Exception {
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap());
        Channel client = track(await(clientBootstrap().handler(new ByteCollector())
                .option(ChannelOption.AUTO_READ, false).connect(startedServer.localAddress())));
        Channel child = take(accepted);
        List<Future<Void>> writes = child.eventLoop().submit(() -> {
            List<Future<Void>> w = writeChunks(child, 16);
            child.close();
            return w;
        }).get();
        Throwable cause = awaitFailure(writes.get(writes.size() - 1));
        assertInstanceOf(ClosedChannelException.class, cause);
        for (Future<Void> w : writes) {
            w.awaitUninterruptibly(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(w.isDone());
        }
        await(client.close());
    }

    /** Queues {@code count} chunks of 1 MiB and flushes; call on the channel's loop. */
    private static List<Future<Void>> writeChunks(Channel ch, int count) {
        List<Future<Void>> writes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ByteBuf chunk = ch.alloc().directBuffer(CHUNK);
            chunk.writerIndex(CHUNK);
            writes.add(ch.write(chunk));
        }
        ch.flush();
        return writes;
    }

    /**
     * A handler that throws: the exception goes to exceptionCaught of the handlers after it. The
     * channel stays open unless one of them closes it — {@link EchoHandler} does, a handler that
     * only logs does not — and other connections are not affected either way.
     */
    @Test
    void anExceptionInAHandlerReachesExceptionCaughtAndOtherChannelsKeepWorking() throws Exception {
        ChannelHandler throwOnBang = new ThrowOnBang();
        Channel closingServer = startServer(serverBootstrap().childHandler(new io.rill.channel.ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(throwOnBang, new EchoHandler());
            }
        }));
        EventRecorder keepGoingEvents = new EventRecorder();
        Channel tolerantServer = startServer(serverBootstrap().childHandler(new io.rill.channel.ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(throwOnBang, keepGoingEvents, new ForgivingEcho());
            }
        }));
        ByteCollector victimBytes = new ByteCollector();
        Channel victim = connect(closingServer, victimBytes);
        ByteCollector bystanderBytes = new ByteCollector();
        Channel bystander = connect(closingServer, bystanderBytes);
        ByteCollector tolerantBytes = new ByteCollector();
        Channel tolerant = connect(tolerantServer, tolerantBytes);

        victim.writeAndFlush(SocketEchoTests.copy(victim, new byte[] {'!'}, 0, 1));
        tolerant.writeAndFlush(SocketEchoTests.copy(tolerant, new byte[] {'!'}, 0, 1));
        await(victim.closeFuture()); // EchoHandler closed the server side; end of stream closed ours
        assertInstanceOf(IllegalStateException.class, take(keepGoingEvents.exceptions));

        await(bystander.writeAndFlush(SocketEchoTests.copy(bystander, new byte[] {'o', 'k'}, 0, 2)));
        assertArrayEquals(new byte[] {'o', 'k'}, bystanderBytes.await(2));
        await(tolerant.writeAndFlush(SocketEchoTests.copy(tolerant, new byte[] {'o', 'k'}, 0, 2)));
        assertArrayEquals(new byte[] {'o', 'k'}, tolerantBytes.await(2));
        assertTrue(tolerant.isOpen());
    }

    /** Throws on a message starting with '!', after releasing it. */
    @ChannelHandler.Sharable
    private static final class ThrowOnBang implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            if (buf.getByte(buf.readerIndex()) == '!') {
                buf.release();
                throw new IllegalStateException("bad input (expected by the test)");
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** Echoes, and only records exceptions instead of closing. */
    @ChannelHandler.Sharable
    private static final class ForgivingEcho implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // swallowed on purpose: the connection goes on
        }
    }
}
