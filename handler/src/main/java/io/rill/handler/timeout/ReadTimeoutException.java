package io.rill.handler.timeout;

import io.rill.channel.ChannelException;

/**
 * {@link ReadTimeoutHandler} saw no read within its timeout. Carries no stack trace: it is
 * raised by a timer, so the trace would only show the event loop.
 */
public final class ReadTimeoutException extends ChannelException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what happened, naming the limit or the input at fault
     */
    public ReadTimeoutException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
