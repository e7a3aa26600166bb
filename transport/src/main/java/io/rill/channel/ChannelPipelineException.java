package io.rill.channel;

/** A pipeline was modified wrongly (a duplicate name, a non-sharable handler added twice) or a handler's life-cycle method failed. */
public class ChannelPipelineException extends ChannelException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message.
     *
     * @param message what was wrong, naming the handler
     */
    public ChannelPipelineException(String message) {
        super(message);
    }

    /**
     * An exception with a message and a cause.
     *
     * @param message what was wrong, naming the handler
     * @param cause what a handler's {@code handlerAdded} or {@code handlerRemoved} threw
     */
    public ChannelPipelineException(String message, Throwable cause) {
        super(message, cause);
    }
}
