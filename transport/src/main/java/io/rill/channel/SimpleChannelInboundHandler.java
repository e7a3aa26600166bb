package io.rill.channel;

import io.rill.buffer.ReferenceCountUtil;

/**
 * An inbound handler for messages of one type: messages of type {@code I} go to
 * {@link #channelRead0} and are released afterwards (unless {@code autoRelease} is off); any
 * other message passes on untouched.
 *
 * <pre>{@code
 * class Greeter extends SimpleChannelInboundHandler<String> {
 *     protected void channelRead0(ChannelHandlerContext ctx, String name) {
 *         ctx.writeAndFlush("hello " + name);
 *     }
 * }
 * }</pre>
 *
 * The message type comes from the type argument of the subclass; a subclass that is itself
 * generic must pass the class to the constructor.
 *
 * @param <I> the type of messages it handles
 */
public abstract class SimpleChannelInboundHandler<I> implements ChannelHandler {

    /** Accepted messages are instances of this. */
    private final Class<?> messageType;
    /** Release accepted messages after channelRead0 returns (or throws). */
    private final boolean autoRelease;

    /** Resolves {@code I} from the subclass; releases messages after {@link #channelRead0}. */
    protected SimpleChannelInboundHandler() {
        this(true);
    }

    /**
     * Resolves {@code I} from the subclass.
     *
     * @param autoRelease whether messages are released after {@link #channelRead0} returns
     */
    protected SimpleChannelInboundHandler(boolean autoRelease) {
        this.messageType = TypeParameterMatcher.find(getClass(), SimpleChannelInboundHandler.class, "I");
        this.autoRelease = autoRelease;
    }

    /**
     * Handles messages of {@code messageType}, releasing them after {@link #channelRead0}.
     *
     * @param messageType the class of handled messages
     */
    protected SimpleChannelInboundHandler(Class<? extends I> messageType) {
        this(messageType, true);
    }

    /**
     * Handles messages of {@code messageType}.
     *
     * @param messageType the class of handled messages
     * @param autoRelease whether messages are released after {@link #channelRead0} returns
     */
    protected SimpleChannelInboundHandler(Class<? extends I> messageType, boolean autoRelease) {
        if (messageType == null) {
            throw new NullPointerException("messageType");
        }
        this.messageType = messageType;
        this.autoRelease = autoRelease;
    }

    /**
     * True if {@code msg} should go to {@link #channelRead0}.
     *
     * @param msg a message
     * @return true if this handler takes it
     */
    public boolean acceptInboundMessage(Object msg) {
        return messageType.isInstance(msg);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!acceptInboundMessage(msg)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            @SuppressWarnings("unchecked")
            I typed = (I) msg;
            channelRead0(ctx, typed);
        } finally {
            if (autoRelease) {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /**
     * Handles one message of type {@code I}; it is released after this returns unless autoRelease is off.
     *
     * @param ctx the handler's context
     * @param msg the message; with autoRelease off, the handler owns it and must release it
     * @throws Exception fired as {@code exceptionCaught}; the message is released anyway with autoRelease on
     */
    protected abstract void channelRead0(ChannelHandlerContext ctx, I msg) throws Exception;
}
