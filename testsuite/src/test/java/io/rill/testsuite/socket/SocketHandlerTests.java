package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.WriteBufferWaterMark;
import io.rill.handler.stream.ChunkedNioFile;
import io.rill.handler.stream.ChunkedWriteHandler;
import io.rill.handler.timeout.IdleStateEvent;
import io.rill.handler.timeout.IdleStateHandler;
import io.rill.handler.timeout.ReadTimeoutException;
import io.rill.handler.timeout.ReadTimeoutHandler;
import io.rill.handler.traffic.ChannelTrafficShapingHandler;
import io.rill.util.concurrent.Future;

/**
 * Handlers from rill-handler over real connections: chunked file writes against a slow
 * reader, idle detection and read timeouts on a quiet connection, and traffic shaping's pace.
 * Short real timeouts are awaited on latches and futures; nothing sleeps.
 */
abstract class SocketHandlerTests extends AbstractSocketTest {

    @TempDir
    Path dir;

    /** Reads with AUTO_READ off, asking for the next read a little after each burst: a slow peer. */
    static final class SlowReader implements ChannelHandler {
        final ByteCollector collector = new ByteCollector();

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.read();
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            collector.channelRead(ctx, msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.executor().schedule(() -> ctx.read(), 1, TimeUnit.MILLISECONDS);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            collector.exceptionCaught(ctx, cause);
        }
    }

    /** Queues every writability change of the channel it is in. */
    static final class WritabilityRecorder implements ChannelHandler {
        final BlockingQueue<Boolean> changes = new LinkedBlockingQueue<>();

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            changes.add(ctx.channel().isWritable());
            ctx.fireChannelWritabilityChanged();
        }
    }

    private Path randomFile(int size) throws Exception {
        byte[] content = new byte[size];
        new Random(7).nextBytes(content);
        return Files.write(dir.resolve("chunked.bin"), content);
    }

    @Test
    void aChunkedFileReachesASlowReaderIntactWithoutOverfillingTheBuffer() throws Exception {
        Path file = randomFile(2 * 1024 * 1024 + 5);
        WritabilityRecorder writability = new WritabilityRecorder();
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap()
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(16 * 1024, 64 * 1024)),
                writability, new ChunkedWriteHandler());
        SlowReader reader = new SlowReader();
        track(await(clientBootstrap().handler(reader).option(ChannelOption.AUTO_READ, false)
                .connect(startedServer.localAddress())));
        Channel child = take(accepted);
        FileChannel fc = FileChannel.open(file, StandardOpenOption.READ);
        Future<Void> sent = child.writeAndFlush(new ChunkedNioFile(fc, 16 * 1024));
        byte[] received = reader.collector.await((int) Files.size(file));
        assertArrayEquals(Files.readAllBytes(file), received);
        await(sent);
        assertFalse(fc.isOpen(), "the input was closed once sent");
        assertEquals(Boolean.FALSE, writability.changes.poll(), "the slow reader filled the buffer at least once");
    }

    @Test
    void aChunkedTransferFailsAndClosesItsInputWhenTheChannelCloses() throws Exception {
        Path file = randomFile(8 * 1024 * 1024);
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(), new ChunkedWriteHandler());
        Channel client = track(await(clientBootstrap().handler(new ByteCollector())
                .option(ChannelOption.AUTO_READ, false).connect(startedServer.localAddress())));
        Channel child = take(accepted);
        FileChannel fc = FileChannel.open(file, StandardOpenOption.READ);
        Future<Void> sent = child.writeAndFlush(new ChunkedNioFile(fc, 8 * 1024));
        await(client.close());
        child.close(); // mid-transfer: the server may not have noticed the peer yet
        awaitFailure(sent);
        await(child.closeFuture());
        assertFalse(fc.isOpen(), "the input was closed on failure");
    }

    @Test
    void idleStateHandlerFiresOnAQuietConnection() throws Exception {
        CountDownLatch readerIdle = new CountDownLatch(2);
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        startServerCollectingChildren(serverBootstrap(),
                new IdleStateHandler(50, 0, 0, TimeUnit.MILLISECONDS),
                new ChannelHandler() {
                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                        events.add(evt);
                        readerIdle.countDown();
                    }
                });
        connect(startedServer, new ByteCollector());
        assertTrue(readerIdle.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "two reader-idle events in time");
        assertEquals(IdleStateEvent.FIRST_READER_IDLE, events.poll());
        assertEquals(IdleStateEvent.READER_IDLE, events.poll());
    }

    @Test
    void readTimeoutClosesAQuietConnection() throws Exception {
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(),
                new ReadTimeoutHandler(50, TimeUnit.MILLISECONDS),
                new ChannelHandler() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        errors.add(cause);
                    }
                });
        Channel client = connect(startedServer, new ByteCollector());
        Channel child = take(accepted);
        await(child.closeFuture());
        assertInstanceOf(ReadTimeoutException.class, take(errors));
        await(client.closeFuture());
    }

    @Test
    void trafficShapingHoldsATransferToItsWriteLimit() throws Exception {
        int total = 256 * 1024;
        int chunk = 8 * 1024;
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(),
                new ChannelTrafficShapingHandler(1024 * 1024, 0));
        ByteCollector received = new ByteCollector();
        connect(startedServer, received);
        Channel child = take(accepted);
        long start = System.nanoTime();
        child.eventLoop().execute(() -> {
            for (int sent = 0; sent < total; sent += chunk) {
                ByteBuf buf = child.alloc().buffer(chunk).writeZero(chunk);
                child.writeAndFlush(buf);
            }
        });
        received.await(total);
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        // 248 KiB after the first chunk at 1 MiB/s is ~242 ms; only a lower bound is asserted.
        assertTrue(elapsedMillis >= 200, "256 KiB at 1 MiB/s took only " + elapsedMillis + " ms");
    }
}
