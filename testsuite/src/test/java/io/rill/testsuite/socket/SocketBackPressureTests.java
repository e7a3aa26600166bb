package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoop;
import io.rill.channel.WriteBufferWaterMark;

/**
 * Flow control both ways: AUTO_READ off reads only on read(); water marks flip writability.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
abstract class SocketBackPressureTests extends AbstractSocketTest {

    /** How long "nothing happens" is watched, on the loop's own timer. */
    private static final long QUIET_MILLIS = 100;

    @Test
    void withAutoReadOffNothingIsReadUntilRead() throws Exception {
        BlockingQueue<Integer> reads = new LinkedBlockingQueue<>();
        ChannelHandler countReads = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                reads.add(((ByteBuf) msg).readableBytes());
                ((ByteBuf) msg).release();
            }
        };
        BlockingQueue<Channel> accepted = startServerCollectingChildren(
                serverBootstrap().childOption(ChannelOption.AUTO_READ, false), countReads);
        Channel client = connect(startedServer, new ByteCollector());
        Channel child = take(accepted);

        await(client.writeAndFlush(SocketEchoTests.copy(client, new byte[100], 0, 100)));
        quietPeriod(child.eventLoop());
        assertTrue(reads.isEmpty(), "read without read(): " + reads);
        child.read();
        assertEquals(100, drain(reads, 100));

        await(client.writeAndFlush(SocketEchoTests.copy(client, new byte[50], 0, 50)));
        quietPeriod(child.eventLoop());
        assertTrue(reads.isEmpty(), "one read() served more than one burst: " + reads);
        child.read();
        assertEquals(50, drain(reads, 50));
    }

    @Test
    void aServerWithAutoReadOffAcceptsOneConnectionPerRead() throws Exception {
        BlockingQueue<Channel> accepted = startServerCollectingChildren(
                serverBootstrap().option(ChannelOption.AUTO_READ, false));
        Channel server = startedServer;
        // Not awaited: an in-VM connect completes only when the server accepts it.
        for (int i = 0; i < 2; i++) {
            io.rill.util.concurrent.Future<Channel> connecting =
                    clientBootstrap().handler(new ByteCollector()).connect(server.localAddress());
            connecting.addListener(f -> {
                if (f.isSuccess()) {
                    track(connecting.getNow());
                }
            });
        }
        quietWindow(server.eventLoop());
        assertTrue(accepted.isEmpty(), "accepted before read(): " + accepted);
        server.read();
        take(accepted);
        quietWindow(server.eventLoop());
        assertTrue(accepted.isEmpty(), "one read() accepted more than one connection");
        server.read();
        take(accepted);
    }

    /** 200 ms measured by the loop's own timer, for "nothing happens" checks. */
    private static void quietWindow(EventLoop loop) throws Exception {
        loop.schedule(() -> null, 200, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS);
    }

    @Test
    void l07_writabilityFlipsOffAndBackOnWithASlowReader() throws Exception {
        EventRecorder events = new EventRecorder();
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap()
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(8 * 1024, 32 * 1024)),
                events);
        ByteCollector received = new ByteCollector();
        Channel client = track(await(clientBootstrap().handler(received)
                .option(ChannelOption.AUTO_READ, false).connect(startedServer.localAddress())));
        Channel child = take(accepted);
        byte[] chunk = new byte[16 * 1024];
        new Random(3).nextBytes(chunk);
        // Write until the outbound buffer passes the high water mark (the kernel's buffers fill first).
        int written = child.eventLoop().submit(() -> {
            int chunks = 0;
            while (child.isWritable() && chunks < 100_000) {
                child.writeAndFlush(SocketEchoTests.copy(child, chunk, 0, chunk.length));
                chunks++;
            }
            return chunks;
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertFalse(child.isWritable());
        assertEquals(Boolean.FALSE, take(events.writability));
        client.config().setAutoRead(true); // the reader catches up
        assertEquals(Boolean.TRUE, take(events.writability));
        byte[] all = received.await(written * chunk.length);
        for (int i = 0; i < written; i += Math.max(1, written / 7)) {
            byte[] slice = java.util.Arrays.copyOfRange(all, i * chunk.length, (i + 1) * chunk.length);
            assertArrayEquals(chunk, slice, "chunk " + i);
        }
    }

    @Test
    void l07_aServerStopsReadingFromAPeerThatDoesNotReadItsAnswersAndResumesWhenItDoes() throws Exception {
        WriteBufferWaterMark marks = WriteBufferWaterMark.DEFAULT;
        java.util.concurrent.CountDownLatch paused = new java.util.concurrent.CountDownLatch(1);
        long[] mostPending = new long[1]; // written by the child's loop only
        ChannelHandler watch = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.fireChannelRead(msg); // the echo writes first, then the backlog is measured
                Channel ch = ctx.channel();
                long pending = ch.isWritable() ? marks.high() - ch.bytesBeforeUnwritable()
                        : marks.low() + ch.bytesBeforeWritable();
                mostPending[0] = Math.max(mostPending[0], pending);
            }

            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                if (ctx.channel().config().isReadPausedForWrites()) {
                    paused.countDown();
                }
                ctx.fireChannelWritabilityChanged();
            }
        };
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(), watch, new EchoHandler());
        ByteCollector received = new ByteCollector();
        Channel client = track(await(clientBootstrap().option(ChannelOption.AUTO_READ, false)
                .handler(received).connect(startedServer.localAddress())));
        Channel child = take(accepted);
        assertTrue(child.config().isPauseReadWhenUnwritable(), "on by default for accepted channels");
        assertFalse(client.config().isPauseReadWhenUnwritable(), "off by default for the rest");

        byte[] chunk = new byte[64 * 1024];
        new Random(7).nextBytes(chunk);
        int chunks = 256; // 16 MiB: far more than the kernel's buffers on both sides hold
        for (int i = 0; i < chunks; i++) {
            client.write(SocketEchoTests.copy(client, chunk, 0, chunk.length));
        }
        client.flush();
        assertTrue(paused.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the server never paused its reading");
        client.config().setAutoRead(true); // the client reads at last: the server resumes and all comes back
        byte[] all = received.await(chunks * chunk.length);
        assertArrayEquals(chunk, java.util.Arrays.copyOfRange(all, all.length - chunk.length, all.length));
        long most = child.eventLoop().submit(() -> mostPending[0]).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertTrue(most <= marks.high() + 2 * chunk.length,
                "the server queued " + most + " bytes for a peer that was not reading; bound: the high water mark ("
                        + marks.high() + ") and one read");
    }

    @Test
    void pausingCanBeTurnedOffForHandlersThatWatchWritabilityThemselves() throws Exception {
        BlockingQueue<Channel> accepted = startServerCollectingChildren(
                serverBootstrap().childOption(ChannelOption.PAUSE_READ_WHEN_UNWRITABLE, false), new EchoHandler());
        connect(startedServer, new ByteCollector());
        Channel child = take(accepted);
        // On the child's loop: its options are applied by the task that set it up.
        assertEquals(Boolean.FALSE, child.eventLoop().submit(() -> child.config()
                .getOption(ChannelOption.PAUSE_READ_WHEN_UNWRITABLE)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    /** Lets the loop run for a while (its own timer; the test thread only waits). */
    private static void quietPeriod(EventLoop loop) throws Exception {
        loop.schedule(() -> null, QUIET_MILLIS, TimeUnit.MILLISECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static int drain(BlockingQueue<Integer> reads, int expected) throws InterruptedException {
        int total = 0;
        while (total < expected) {
            total += take(reads);
        }
        return total;
    }
}
