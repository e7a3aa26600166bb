package io.rill.channel;

/** An {@link IoHandle}'s registration with an {@link IoHandler}. Used on the event loop only. */
public interface IoRegistration {

    /** Replaces the set of operations the handle wants to be told about. */
    void submit(IoOps interest);

    /** True until {@link #cancel()} or the handle's close. */
    boolean isValid();

    /** Stops watching the handle; returns false if it was already cancelled. */
    boolean cancel();

    /** The handler-specific object behind the registration (a {@code SelectionKey} for NIO). */
    <T> T attachment();
}
