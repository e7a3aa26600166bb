package io.rill.example;

import java.util.ArrayDeque;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * First in every example server's pipeline: while the channel is not writable (answers above the
 * outbound buffer's high water mark wait for the peer to read them), what arrives is held here
 * instead of being answered, and reading stops. So a peer that sends but never reads costs the
 * high water mark plus one read burst, not everything it can send. Held input goes on, in order,
 * once the channel is writable again.
 *
 * <p>Reading is stopped by turning AUTO_READ off (and on again only if this gate turned it off),
 * and by holding back the {@code read()} requests of the handlers after it until it lets input go
 * again: a decoder that saw no input in a read asks for another, which would read on for ever.
 * Other handlers may turn AUTO_READ on meanwhile (the HTTP codec does when its pipelined requests
 * are answered); input that then arrives is held too and reading stops again, so that costs at
 * most one more read burst. A transport that pauses reading above the high water mark by itself
 * makes this gate idle, not wrong.
 */
final class WritabilityGate implements ChannelHandler {

    /** Input that arrived while the channel was unwritable, oldest first. */
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    /** This gate turned AUTO_READ off, so it turns it back on. */
    private boolean clearedAutoRead;
    /** A task to let held input go is queued. */
    private boolean drainQueued;
    /** A handler after this one asked for a read while input was held back; asked for on drain. */
    private boolean readWanted;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (held.isEmpty() && ctx.channel().isWritable()) {
            ctx.fireChannelRead(msg);
            return;
        }
        held.add(msg);
        stopReading(ctx.channel().config());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.fireChannelReadComplete(); // handlers flush here: that may drain the buffer right away
        if (!ctx.channel().isWritable()) {
            stopReading(ctx.channel().config());
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (held.isEmpty() && ctx.channel().isWritable()) {
            ctx.read();
        } else {
            readWanted = true;
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.fireChannelWritabilityChanged();
        if (ctx.channel().isWritable() && (clearedAutoRead || readWanted || !held.isEmpty()) && !drainQueued) {
            // In a task, not here: this event may come from inside a flush, where answering would nest writes.
            drainQueued = true;
            ctx.executor().execute(() -> drain(ctx));
        }
    }

    /** Lets held input go while the channel stays writable; reads again once none is left. */
    private void drain(ChannelHandlerContext ctx) {
        drainQueued = false;
        if (ctx.isRemoved()) {
            return;
        }
        boolean passed = false;
        while (!held.isEmpty() && ctx.channel().isWritable()) {
            ctx.fireChannelRead(held.poll());
            passed = true;
        }
        if (passed) {
            ctx.fireChannelReadComplete();
        }
        if (!held.isEmpty() || !ctx.channel().isWritable()) {
            return;
        }
        if (clearedAutoRead) {
            clearedAutoRead = false;
            ctx.channel().config().setAutoRead(true); // that reads
        } else if (readWanted) {
            ctx.read();
        }
        readWanted = false;
    }

    private void stopReading(ChannelConfig config) {
        if (config.isAutoRead()) {
            config.setAutoRead(false);
            clearedAutoRead = true;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseHeld(); // nobody is left to answer
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseHeld();
    }

    private void releaseHeld() {
        for (Object msg; (msg = held.poll()) != null; ) {
            ReferenceCountUtil.release(msg);
        }
    }
}
