package io.rill.channel;

/** Makes one {@link IoHandler} per event loop, e.g. {@code NioIoHandler.newFactory()}. */
@FunctionalInterface
public interface IoHandlerFactory {

    /** {@return a new handler for one event loop} Called once per loop, when the loop is made. */
    IoHandler newHandler();
}
