package io.rill.channel.socket;

import io.rill.channel.Channel;
import io.rill.util.concurrent.Future;

/**
 * A channel whose two directions can be shut down one at a time (TCP's FIN, a Unix-domain
 * stream's {@code shutdown(2)}), so a peer can finish sending and still receive the answer.
 */
public interface DuplexChannel extends Channel {

    /**
     * {@return true once input was shut down, by {@link #shutdownInput()} or by the peer's end of stream under
     * ALLOW_HALF_CLOSURE}
     */
    boolean isInputShutdown();

    /** {@return true once {@link #shutdownOutput()} (or {@link #shutdown()}) ran} */
    boolean isOutputShutdown();

    /**
     * Stops reading; data that arrives later is discarded by the operating system.
     *
     * @return a future completed when input is shut down
     */
    Future<Void> shutdownInput();

    /**
     * Sends end of stream (FIN) after nothing more: writes still queued are failed, later writes
     * are refused. Fires {@link ChannelOutputShutdownEvent}.
     *
     * @return a future completed when the FIN was handed to the kernel
     */
    Future<Void> shutdownOutput();

    /**
     * Shuts down both directions; the channel stays open until {@link #close()}.
     *
     * @return a future completed when both directions are shut down
     */
    Future<Void> shutdown();
}
