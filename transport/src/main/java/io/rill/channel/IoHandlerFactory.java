package io.rill.channel;

/** Makes one {@link IoHandler} per event loop, e.g. {@code NioIoHandler.newFactory()}. */
@FunctionalInterface
public interface IoHandlerFactory {

    IoHandler newHandler();
}
