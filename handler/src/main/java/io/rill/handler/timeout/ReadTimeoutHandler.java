package io.rill.handler.timeout;

import java.util.concurrent.TimeUnit;

import io.rill.channel.ChannelHandlerContext;

/**
 * Closes a channel that read nothing for a while: fires a {@link ReadTimeoutException} once,
 * then closes. It is an {@link IdleStateHandler} watching only the reader side, so the same
 * rules apply: a read burst in progress is activity, the clock restarts at its end.
 *
 * <p>Keeps per-channel state: not sharable.
 */
public class ReadTimeoutHandler extends IdleStateHandler {

    private boolean closed;

    /**
     * Closes a channel that read nothing for {@code timeoutSeconds}.
     *
     * @param timeoutSeconds the time without a read, in seconds; positive
     * @throws IllegalArgumentException if the timeout is not positive
     */
    public ReadTimeoutHandler(int timeoutSeconds) {
        this(timeoutSeconds, TimeUnit.SECONDS);
    }

    /**
     * Closes a channel that read nothing for {@code timeout} (at least a millisecond).
     *
     * @param timeout the time without a read; positive
     * @param unit    the unit of {@code timeout}
     * @throws IllegalArgumentException if the timeout is not positive
     */
    public ReadTimeoutHandler(long timeout, TimeUnit unit) {
        super(timeout, 0, 0, unit);
        if (timeout <= 0) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
        }
    }

    @Override
    protected final void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) throws Exception {
        readTimedOut(ctx);
    }

    /**
     * Fires the exception and closes the channel, once. Override to react differently.
     *
     * @param ctx the context of this handler; called on the event loop
     * @throws Exception any failure; it reaches {@code exceptionCaught}
     */
    protected void readTimedOut(ChannelHandlerContext ctx) throws Exception {
        if (!closed) {
            closed = true;
            ctx.fireExceptionCaught(new ReadTimeoutException(
                    "nothing read for " + readerIdleTime(TimeUnit.MILLISECONDS) + " ms"));
            ctx.close();
        }
    }
}
