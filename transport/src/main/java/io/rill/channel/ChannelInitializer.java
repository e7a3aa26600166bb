package io.rill.channel;

import io.rill.util.InternalLogger;

/**
 * Sets up a new channel's pipeline: {@link #initChannel} runs once, as soon as this handler is
 * added, and then the initializer removes itself. Typically given to a bootstrap, which adds
 * the same instance to every channel it creates, hence {@link ChannelHandler.Sharable}.
 * If {@code initChannel} throws, the failure is logged once, at warning level, and the channel is
 * closed: a half-built pipeline must not serve traffic. The exception is not fired down that
 * pipeline, whose handlers never saw the channel work.
 *
 * @param <C> the channel type it initializes
 */
@ChannelHandler.Sharable
public abstract class ChannelInitializer<C extends Channel> implements ChannelHandler {

    private static final InternalLogger LOG = InternalLogger.get(ChannelInitializer.class);

    /** For subclasses, usually anonymous ones passed to {@code handler} or {@code childHandler}. */
    protected ChannelInitializer() {
    }

    /**
     * Adds the channel's handlers; runs on the channel's event loop, before any event reaches them.
     *
     * @param channel the new channel
     * @throws Exception closes the channel; it is logged
     */
    protected abstract void initChannel(C channel) throws Exception;

    @Override
    @SuppressWarnings("unchecked")
    public final void handlerAdded(ChannelHandlerContext ctx) {
        try {
            initChannel((C) ctx.channel());
        } catch (Throwable t) {
            LOG.warn("initChannel() of " + getClass().getName() + " failed for " + ctx.channel() + "; closing it", t);
            ctx.close();
        } finally {
            if (!ctx.isRemoved()) {
                ctx.pipeline().remove(this);
            }
        }
    }
}
