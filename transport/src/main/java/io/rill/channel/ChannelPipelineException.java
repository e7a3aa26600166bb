package io.rill.channel;

/** A pipeline was modified wrongly (a duplicate name, a non-sharable handler added twice) or a handler's life-cycle method failed. */
public class ChannelPipelineException extends ChannelException {

    private static final long serialVersionUID = 1L;

    public ChannelPipelineException(String message) {
        super(message);
    }

    public ChannelPipelineException(String message, Throwable cause) {
        super(message, cause);
    }
}
