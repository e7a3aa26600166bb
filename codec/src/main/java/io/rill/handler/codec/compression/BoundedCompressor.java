package io.rill.handler.codec.compression;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.EncoderException;
import io.rill.handler.codec.MessageToByteEncoder;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * What the zlib, brotli, zstd, snappy and lz4 encoders share: every outbound {@code ByteBuf} is
 * compressed and flushed into one stream at once (the peer can decode all that was written so
 * far), {@link #finish()} or closing the channel writes the end of the stream, and the native
 * state is freed once, at the end or when the handler leaves.
 */
abstract class BoundedCompressor extends MessageToByteEncoder<ByteBuf> {

    private final String format;
    /** The stream was ended (or the handler left): native state freed. */
    private volatile boolean finished;
    private volatile ChannelHandlerContext ctx;

    BoundedCompressor(String format) {
        super(ByteBuf.class, true);
        this.format = format;
    }

    /** An upper bound of what {@link #compress} writes for {@code length} input bytes. */
    abstract int maxCompressedLength(int length);

    /** Compresses and flushes the readable bytes of {@code in} into {@code out}, growing it if needed. */
    abstract void compress(ChannelHandlerContext ctx, ByteBuf in, ByteBuf out);

    /** Writes the end of the stream into {@code out}. */
    abstract void end(ByteBuf out);

    /** Frees native state; called once. */
    abstract void release();

    /**
     * True once the stream was ended.
     *
     * @return whether the stream was ended; thread-safe
     */
    public boolean isFinished() {
        return finished;
    }

    /**
     * Ends the stream without closing the channel. Thread-safe: called off the event loop, it runs there.
     *
     * @return completes when the end of the stream is written
     * @throws IllegalStateException if the encoder is not in a pipeline
     */
    public Future<Void> finish() {
        ChannelHandlerContext ctx = this.ctx;
        if (ctx == null) {
            throw new IllegalStateException("not in a pipeline");
        }
        Promise<Void> promise = ctx.newPromise();
        if (ctx.executor().inEventLoop()) {
            finish(ctx, promise);
        } else {
            ctx.executor().execute(() -> finish(ctx, promise));
        }
        return promise;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (!finished) {
            finished = true;
            release();
        }
    }

    @Override
    public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
        if (finished) {
            ctx.close(promise);
            return;
        }
        Promise<Void> ended = ctx.newPromise();
        finish(ctx, ended);
        ended.addListener(f -> ctx.close(promise));
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, ByteBuf msg, boolean preferDirect) {
        int size = maxCompressedLength(msg.readableBytes());
        return preferDirect ? ctx.alloc().ioBuffer(size) : ctx.alloc().heapBuffer(size);
    }

    @Override
    protected final void encode(ChannelHandlerContext ctx, ByteBuf msg, ByteBuf out) {
        if (finished) {
            throw new EncoderException("the " + format + " stream was already finished");
        }
        compress(ctx, msg, out);
    }

    private void finish(ChannelHandlerContext ctx, Promise<Void> promise) {
        if (finished) {
            promise.trySuccess(null);
            return;
        }
        finished = true;
        ByteBuf footer = ctx.alloc().ioBuffer(64);
        try {
            end(footer);
        } catch (RuntimeException | Error e) {
            footer.release();
            promise.tryFailure(e);
            return;
        } finally {
            release();
        }
        ctx.writeAndFlush(footer, promise);
    }
}
