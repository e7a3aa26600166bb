package io.rill.channel;

/**
 * Something an {@link IoHandler} watches for readiness, usually a channel's socket. Called on its
 * event loop only.
 */
public interface IoHandle extends AutoCloseable {

    /**
     * The handle is ready for {@code readyOps}.
     *
     * @param registration the handle's registration
     * @param readyOps the ready operations; event-loop thread only
     */
    void handle(IoRegistration registration, IoOps readyOps);

    /** Closes the handle; the I/O handler calls it when the loop shuts down or the handle failed. */
    @Override
    void close() throws Exception;
}
