package io.rill.handler.codec;

import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.socket.ChannelInputShutdownEvent;

/**
 * What a {@link ByteToMessageDecoder} holds back while its decoding is suspended, and how it is
 * given back: reading (AUTO_READ turned off, {@code read()} requests from later handlers kept)
 * and an end of input that arrived meanwhile. Resuming or leaving the pipeline gives all of it
 * back, so a suspension never leaves the channel unable to read.
 *
 * <p>Static methods over the decoder's own flags, like {@link DecodeLoop}, so a decoder stays one
 * object on the read path.
 */
final class DecoderSuspension {

    private DecoderSuspension() {
    }

    /** Turns AUTO_READ off (again, should anyone have turned it on), remembering to restore it. */
    static void stopReading(ByteToMessageDecoder d, ChannelConfig config) {
        if (config.isAutoRead()) {
            config.setAutoRead(false);
            d.clearedAutoRead = true;
        }
    }

    /** See {@link ByteToMessageDecoder#resumeDecoding}. */
    static void resume(ByteToMessageDecoder d, ChannelHandlerContext ctx) throws Exception {
        if (!d.suspended || d.decoding || ctx.isRemoved()) {
            return;
        }
        d.suspended = false;
        DecodeLoop.decodeWhatArrived(d, ctx);
        if (d.suspended || ctx.isRemoved()) {
            return;
        }
        ChannelConfig config = ctx.channel().config();
        boolean wanted = d.readWanted;
        d.readWanted = false;
        if (d.clearedAutoRead) {
            d.clearedAutoRead = false;
            config.setAutoRead(true);
        }
        if (d.producedSinceReadComplete) {
            d.channelReadComplete(ctx);
        } else if (wanted && !config.isAutoRead()) {
            ctx.read(); // asked for while suspended and held back
        }
        if (d.inputShutdownWaiting) {
            d.inputShutdownWaiting = false;
            d.userEventTriggered(ctx, ChannelInputShutdownEvent.INSTANCE);
        }
    }

    /** The decoder left the pipeline: the held-back read is asked for and AUTO_READ restored. */
    static void release(ByteToMessageDecoder d, ChannelHandlerContext ctx) {
        d.suspended = false;
        if (d.readWanted) {
            d.readWanted = false;
            ctx.read();
        }
        if (d.clearedAutoRead) {
            d.clearedAutoRead = false;
            ctx.channel().config().setAutoRead(true);
        }
    }
}
