package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.EventLoop;

/**
 * What the steady-state allocation tests share: the JVM's per-thread allocation counter read for
 * an event loop's thread, and a client that repeats one exchange over and over.
 */
final class LoopAllocation {

    private LoopAllocation() {
    }

    /** The id of {@code loop}'s thread. */
    static long threadId(EventLoop loop) throws Exception {
        return loop.submit(() -> Thread.currentThread().getId()).get(10, TimeUnit.SECONDS);
    }

    /** Bytes the thread has allocated so far; exact, whatever else the machine does. */
    static long allocatedBytes(long threadId) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = mx.getThreadAllocatedBytes(threadId);
        assertTrue(bytes >= 0, "per-thread allocation counting is not supported by this JVM");
        return bytes;
    }

    /**
     * Sends {@code message}, waits until {@code replyBytes} bytes came back, repeats; runs on the
     * client's loop with the void promise, so the client adds no garbage of its own per exchange.
     */
    static final class RepeatedExchange implements ChannelHandler {
        private final byte[] message;
        private final long replyBytes;
        private ChannelHandlerContext ctx;
        private int left;
        private long pendingBytes;
        private CompletableFuture<Void> done;

        RepeatedExchange(byte[] message, long replyBytes) {
            this.message = message;
            this.replyBytes = replyBytes;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        /** Runs {@code count} exchanges; completes when the last reply is in. */
        CompletableFuture<Void> run(Channel channel, int count) {
            CompletableFuture<Void> result = new CompletableFuture<>();
            channel.eventLoop().execute(() -> {
                done = result;
                left = count;
                send();
            });
            return result;
        }

        private void send() {
            pendingBytes = replyBytes;
            ByteBuf buf = ctx.alloc().directBuffer(message.length).writeBytes(message);
            ctx.writeAndFlush(buf, ctx.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            pendingBytes -= buf.readableBytes();
            buf.release();
            if (pendingBytes > 0) {
                return;
            }
            if (--left == 0) {
                done.complete(null);
            } else {
                send();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
            ctx.close();
        }
    }
}
