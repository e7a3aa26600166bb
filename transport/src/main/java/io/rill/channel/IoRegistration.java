package io.rill.channel;

/** An {@link IoHandle}'s registration with an {@link IoHandler}. Used on the event loop only. */
public interface IoRegistration {

    /**
     * Replaces the set of operations the handle wants to be told about.
     *
     * @param interest the operations; event-loop thread only
     */
    void submit(IoOps interest);

    /** {@return true until {@link #cancel()} or the handle's close} */
    boolean isValid();

    /**
     * Stops watching the handle; returns false if it was already cancelled.
     *
     * @return true if this call cancelled it
     */
    boolean cancel();

    /**
     * {@return the handler-specific object behind the registration (a {@code SelectionKey} for NIO)}
     *
     * @param <T> the type the caller expects
     */
    <T> T attachment();
}
