package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.ChannelOption;
import io.rill.channel.ResourceExhaustedEvent;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.handler.codec.CorruptedFrameException;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * A connection Rill closes because memory ran out (what reset the non-reading HTTP clients of
 * issue 13 when the server buffered their answers without bound: the direct-memory allocation
 * of the next buffer failed, the application closed the channel, and nothing said why) is
 * reported: a warning line naming the channel and the reason, and a {@link ResourceExhaustedEvent}
 * a handler can observe before the close. And a read path that runs out of memory skips no byte
 * (docs/security-cases.md, case R-07): when a read buffer, a cumulation's growth or a frame cannot
 * be allocated, the decoder decodes nothing after the hole, every buffer is released (the leak
 * detector runs at PARANOID) and the next connection is served. There the close lingers as a
 * protocol's graceful close does (HTTP/2's GOAWAY and PING), so bytes that arrive after the
 * failure reach the decoder: they used to be cumulated after the lost ones and read as the rest
 * of an earlier frame.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class SocketResourceExhaustionTests extends AbstractSocketTest {

    @Order(1)
    @Test
    void aChannelWhoseBufferAllocationFailsIsClosedWithAWarningAndAnEvent() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger jul = Logger.getLogger("io.rill.channel.ResourceExhaustion");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                warnings.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(capture);
        try {
            BlockingQueue<Object> events = new LinkedBlockingQueue<>();
            ChannelHandler failingAllocation = new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ReferenceCountUtil.release(msg);
                    // What ByteBuffer.allocateDirect throws at -XX:MaxDirectMemorySize.
                    throw new OutOfMemoryError("Cannot reserve 65536 bytes of direct buffer memory");
                }

                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    // An application that ignores errors: the channel must still close, and say why.
                }

                @Override
                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                    events.add(evt);
                }
            };
            BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(), failingAllocation);
            Channel client = connect(startedServer, new ByteCollector());
            Channel child = take(accepted);
            await(client.writeAndFlush(SocketHalfClosureTests.ascii(client, "hello")));
            await(child.closeFuture());
            ResourceExhaustedEvent event = (ResourceExhaustedEvent) take(events);
            assertTrue(event.reason().contains("out of memory"), event.reason());
            assertTrue(event.cause() instanceof OutOfMemoryError);
            assertEquals(1, warnings.stream().filter(w -> w.startsWith("WARNING Closing") && w.contains("out of memory")
                    && w.contains("MaxDirectMemorySize")).count(), "one warning line: " + warnings);
        } finally {
            jul.removeHandler(capture);
        }
    }

    private static final int FRAMES = 60;
    private static final int FRAME_LENGTH = 3_000;

    @Order(2) // after the warning test: closing for want of memory logs one line a second at most
    @ParameterizedTest(name = "allocation {0} fails")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13, 21, 34})
    void noByteIsSkippedWhenAnAllocationOfTheReadPathFails(int failing) throws Exception {
        FailingAllocator alloc = new FailingAllocator();
        List<String> corrupt = new CopyOnWriteArrayList<>();
        List<Integer> frames = new CopyOnWriteArrayList<>();
        BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
        startServer(serverBootstrap().childOption(ChannelOption.ALLOCATOR, alloc).childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new CopyingFrameDecoder(), new FrameChecker(frames, corrupt), new GracefulClose());
                accepted.add(track(ch));
            }
        }));
        Channel first = connect(startedServer, new ByteCollector());
        Channel child = take(accepted);
        alloc.failAt(failing);
        sendFrames(first, 0, FRAMES);
        assertTrue(child.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the broken connection closes");
        assertEquals(1, alloc.failures(), "one allocation failed");
        assertEquals(List.of(), corrupt, "a frame made of the wrong bytes reached the application");
        for (int i = 0; i < frames.size(); i++) {
            assertEquals(i, frames.get(i), "frames in order, from the first, none skipped: " + frames);
        }

        // Another connection to the same server is served whole.
        frames.clear();
        Channel second = connect(startedServer, new ByteCollector());
        Channel secondChild = take(accepted);
        await(sendFrames(second, 0, FRAMES));
        await(second.close());
        await(secondChild.closeFuture());
        assertEquals(FRAMES, frames.size(), "the next connection lost nothing: " + frames);
        assertEquals(List.of(), corrupt);
    }

    /** Frames 4-byte length + payload, frame {@code i} filled with byte {@code i}, each sent in three flushed pieces. */
    private static Future<Void> sendFrames(Channel ch, int from, int count) {
        Future<Void> last = null;
        for (int i = from; i < from + count; i++) {
            ByteBuf frame = ch.alloc().buffer(4 + FRAME_LENGTH).writeInt(FRAME_LENGTH);
            for (int j = 0; j < FRAME_LENGTH; j++) {
                frame.writeByte(i);
            }
            int third = frame.readableBytes() / 3;
            ch.writeAndFlush(frame.readRetainedSlice(third));
            ch.writeAndFlush(frame.readRetainedSlice(third));
            last = ch.writeAndFlush(frame);
        }
        return last;
    }

    /** Frames of a 4-byte length and a payload, each copied into a buffer of its own: a third allocation point. */
    private static final class CopyingFrameDecoder extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < 4) {
                return;
            }
            int length = in.getInt(in.readerIndex());
            if (length < 0 || length > 1 << 16) {
                throw new CorruptedFrameException("frame length " + length);
            }
            if (in.readableBytes() < 4 + length) {
                return;
            }
            in.skipBytes(4);
            out.add(ctx.alloc().buffer(length).writeBytes(in, length));
        }
    }

    /** Checks every frame is whole and of one byte value, and records that value. */
    private static final class FrameChecker implements ChannelHandler {
        private final List<Integer> frames;
        private final List<String> corrupt;

        FrameChecker(List<Integer> frames, List<String> corrupt) {
            this.frames = frames;
            this.corrupt = corrupt;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                int value = frame.isReadable() ? frame.getUnsignedByte(frame.readerIndex()) : -1;
                boolean whole = frame.readableBytes() == FRAME_LENGTH;
                for (int i = frame.readerIndex(); whole && i < frame.writerIndex(); i++) {
                    whole = frame.getUnsignedByte(i) == value;
                }
                if (whole) {
                    frames.add(value);
                } else {
                    corrupt.add(frame.readableBytes() + " bytes starting with " + value);
                }
            } finally {
                frame.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof OutOfMemoryError)) {
                corrupt.add("decoding failed: " + cause);
            }
        }
    }

    /** Closes 200 ms after being asked to, reading on meanwhile: a protocol's graceful close. */
    private static final class GracefulClose implements ChannelHandler {
        @Override
        public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
            ctx.executor().schedule(() -> ctx.close(promise), 200, TimeUnit.MILLISECONDS);
        }
    }
}
