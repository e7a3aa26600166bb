package io.rill.testsuite.socket;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Copies every byte it reads (releasing the buffers) and lets a test thread wait until a number
 * of bytes has arrived. Remembers the first exception it saw.
 */
final class ByteCollector implements ChannelHandler {

    /** Guarded by this. */
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    /** Guarded by this. */
    private Throwable error;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        try {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            synchronized (this) {
                received.write(bytes, 0, bytes.length);
                notifyAll();
            }
        } finally {
            buf.release();
        }
    }

    @Override
    public synchronized void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (error == null) {
            error = cause;
        }
        notifyAll();
    }

    /** Waits until {@code count} bytes in total have arrived, then returns them all. */
    synchronized byte[] await(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AbstractSocketTest.TIMEOUT_SECONDS);
        while (received.size() < count && error == null) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw new AssertionError("received " + received.size() + " of " + count + " bytes in time");
            }
            wait(left);
        }
        if (error != null) {
            throw new AssertionError("failed after " + received.size() + " of " + count + " bytes", error);
        }
        return received.toByteArray();
    }

    /** The bytes from {@code from} of what has arrived, once {@code from + count} have. */
    byte[] await(int from, int count) throws InterruptedException {
        return Arrays.copyOfRange(await(from + count), from, from + count);
    }

    synchronized int size() {
        return received.size();
    }
}
