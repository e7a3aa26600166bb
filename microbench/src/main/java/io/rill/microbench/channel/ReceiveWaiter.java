package io.rill.microbench.channel;

import java.util.concurrent.locks.LockSupport;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * A client handler for socket benchmarks: counts the bytes received on the loop and unparks
 * the benchmark thread once the expected number has arrived. One benchmark thread, one
 * expectation at a time.
 */
final class ReceiveWaiter implements ChannelHandler {

    private volatile Thread waiting;
    private volatile int remaining;

    /** Called by the benchmark thread before sending what will be answered with {@code bytes}. */
    void expect(int bytes) {
        waiting = Thread.currentThread();
        remaining = bytes;
    }

    /** Parks the benchmark thread until the expected bytes have arrived. */
    void await() {
        while (remaining > 0) {
            LockSupport.park(this);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        int left = remaining - buf.readableBytes();
        buf.release();
        remaining = left;
        if (left <= 0) {
            LockSupport.unpark(waiting);
        }
    }
}
