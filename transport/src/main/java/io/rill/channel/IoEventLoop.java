package io.rill.channel;

import io.rill.util.concurrent.Future;

/** An {@link EventLoop} that drives an {@link IoHandler}. */
public interface IoEventLoop extends EventLoop {

    /** Registers {@code handle} with this loop's I/O handler, on the loop thread. */
    Future<IoRegistration> register(IoHandle handle);

    /** True if this loop's I/O handler accepts handles of {@code handleType}. */
    boolean isCompatible(Class<? extends IoHandle> handleType);
}
