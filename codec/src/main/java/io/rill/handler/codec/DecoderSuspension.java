package io.rill.handler.codec;

import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelHandlerContext;

/**
 * What a {@link ByteToMessageDecoder} holds back while its decoding is suspended: reading (it
 * turns AUTO_READ off and keeps {@code read()} requests from later handlers), and an end of
 * input that arrived meanwhile. Resuming or leaving the pipeline gives all of it back, so a
 * suspension never leaves the channel unable to read.
 */
final class DecoderSuspension {

    /** Between suspendDecoding and resumeDecoding: decode is not called. */
    private boolean active;
    /** The decoder turned AUTO_READ off to suspend, so ending the suspension turns it back on. */
    private boolean clearedAutoRead;
    /** The input was shut down while suspended: the end of input is handled on resume. */
    private boolean inputShutdownWaiting;
    /** A read was asked for while suspended (and held back): it is asked for on resume. */
    private boolean readWanted;

    boolean isActive() {
        return active;
    }

    void begin(ChannelConfig config) {
        active = true;
        stopReading(config);
    }

    /** Ends the suspension before the waiting bytes are decoded; reading is restored after. */
    void lift() {
        active = false;
    }

    /** Turns AUTO_READ off (again, should anyone have turned it on), remembering to restore it. */
    void stopReading(ChannelConfig config) {
        if (config.isAutoRead()) {
            config.setAutoRead(false);
            clearedAutoRead = true;
        }
    }

    /** Asks for a read now, or holds the request back while suspended. */
    void read(ChannelHandlerContext ctx) {
        if (active) {
            readWanted = true;
        } else {
            ctx.read();
        }
    }

    void holdInputShutdown() {
        inputShutdownWaiting = true;
    }

    /** Whether an end of input waited (and forgets it): the caller handles it now. */
    boolean takeInputShutdown() {
        boolean waiting = inputShutdownWaiting;
        inputShutdownWaiting = false;
        return waiting;
    }

    /**
     * On resume: turns AUTO_READ back on if the suspension turned it off.
     *
     * @return whether a read was asked for and held back meanwhile
     */
    boolean restoreReading(ChannelConfig config) {
        boolean wanted = readWanted;
        readWanted = false;
        if (clearedAutoRead) {
            clearedAutoRead = false;
            config.setAutoRead(true);
        }
        return wanted;
    }

    /** The decoder left the pipeline: the held-back read is asked for and AUTO_READ restored. */
    void release(ChannelHandlerContext ctx) {
        active = false;
        if (readWanted) {
            readWanted = false;
            ctx.read();
        }
        if (clearedAutoRead) {
            clearedAutoRead = false;
            ctx.channel().config().setAutoRead(true);
        }
    }
}
