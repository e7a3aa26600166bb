package io.rill.channel;

import io.rill.util.concurrent.Future;

/** An {@link EventLoop} that drives an {@link IoHandler}. */
public interface IoEventLoop extends EventLoop {

    /**
     * Registers {@code handle} with this loop's I/O handler, on the loop thread.
     *
     * @param handle the handle
     * @return a future completed with the registration
     */
    Future<IoRegistration> register(IoHandle handle);

    /**
     * {@return true if this loop's I/O handler accepts handles of {@code handleType}}
     *
     * @param handleType the handle class
     */
    boolean isCompatible(Class<? extends IoHandle> handleType);
}
