package io.rill.channel;

/**
 * The I/O half of an event loop: a poller (a JDK selector, epoll, or nothing for in-VM channels)
 * plus the handles registered with it. One generic {@link SingleThreadIoEventLoop} drives every
 * transport's handler, always from the loop thread except {@link #wakeup()}.
 */
public interface IoHandler {

    /** Called once on the loop thread before the first {@link #run}. */
    default void initialize() {
    }

    /**
     * Waits for readiness, blocking only when {@link IoHandlerContext#canBlock()} allows and no
     * longer than {@link IoHandlerContext#delayNanos()}, then calls the ready handles.
     *
     * @return the number of handles processed
     * @param context tells whether and how long the handler may block
     */
    int run(IoHandlerContext context);

    /** Makes a blocked {@link #run} return soon. Called from other threads; must be cheap when not blocked. */
    void wakeup();

    /**
     * Registers {@code handle} with no interest yet.
     *
     * @param handle the handle
     * @return its registration
     * @throws Exception if the handle cannot be registered
     */
    IoRegistration register(IoHandle handle) throws Exception;

    /**
     * {@return true if handles of {@code handleType} can be registered here}
     *
     * @param handleType the handle class
     */
    boolean isCompatible(Class<? extends IoHandle> handleType);

    /** The loop is shutting down: close every registered handle. May be called more than once. */
    void prepareToDestroy();

    /** Releases the poller; the last call the handler receives. */
    void destroy();
}
