package io.rill.channel.socket;

import io.rill.channel.Channel;
import io.rill.util.concurrent.Future;

/**
 * A channel whose two directions can be shut down one at a time (TCP's FIN, a Unix-domain
 * stream's {@code shutdown(2)}), so a peer can finish sending and still receive the answer.
 */
public interface DuplexChannel extends Channel {

    /** True once input was shut down, by {@link #shutdownInput()} or by the peer's end of stream under ALLOW_HALF_CLOSURE. */
    boolean isInputShutdown();

    /** True once {@link #shutdownOutput()} (or {@link #shutdown()}) ran. */
    boolean isOutputShutdown();

    /** Stops reading; data that arrives later is discarded by the operating system. */
    Future<Void> shutdownInput();

    /**
     * Sends end of stream (FIN) after nothing more: writes still queued are failed, later writes
     * are refused. Fires {@link ChannelOutputShutdownEvent}.
     */
    Future<Void> shutdownOutput();

    /** Shuts down both directions; the channel stays open until {@link #close()}. */
    Future<Void> shutdown();
}
