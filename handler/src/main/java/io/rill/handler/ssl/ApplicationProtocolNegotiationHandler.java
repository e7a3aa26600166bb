package io.rill.handler.ssl;

import java.util.ArrayList;
import java.util.List;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.InternalLogger;

/**
 * Sets up the rest of the pipeline once TLS has agreed on an application protocol (ALPN,
 * RFC 7301): put it after the {@link SslHandler}, implement {@link #configurePipeline}, and it
 * removes itself after calling it. Messages that arrive before the handshake event are held
 * and passed on after the pipeline is configured.
 *
 * <pre>
 *   protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
 *       if (ApplicationProtocolNames.HTTP_2.equals(protocol)) { ... } else { ... }
 *   }
 * </pre>
 */
public abstract class ApplicationProtocolNegotiationHandler implements ChannelHandler {

    private static final InternalLogger logger = InternalLogger.get(ApplicationProtocolNegotiationHandler.class);

    private final String fallbackProtocol;
    private final List<Object> held = new ArrayList<>();
    private boolean configured;

    /** @param fallbackProtocol the protocol assumed when the peer negotiated none */
    protected ApplicationProtocolNegotiationHandler(String fallbackProtocol) {
        if (fallbackProtocol == null) {
            throw new NullPointerException("fallbackProtocol");
        }
        this.fallbackProtocol = fallbackProtocol;
    }

    /**
     * Adds the handlers for {@code protocol} (the negotiated one, or the fallback).
     *
     * @param ctx      the context of this handler, which removes itself after this returns
     * @param protocol the protocol name, e.g. {@code "h2"}
     * @throws Exception any failure; it goes to {@code exceptionCaught}
     */
    protected abstract void configurePipeline(ChannelHandlerContext ctx, String protocol) throws Exception;

    /**
     * The handshake failed: logs and closes. Override to react otherwise.
     *
     * @param ctx   the context of this handler
     * @param cause why the handshake failed
     * @throws Exception any failure; it reaches {@code exceptionCaught}
     */
    protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        logger.debug("{}: TLS handshake failed: {}", ctx.channel(), cause);
        ctx.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (configured) {
            ctx.fireChannelRead(msg);
        } else {
            held.add(msg);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent handshake && !configured) {
            configured = true;
            try {
                if (handshake.isSuccess()) {
                    SslHandler ssl = ctx.pipeline().get(SslHandler.class);
                    String protocol = ssl == null ? null : ssl.applicationProtocol();
                    configurePipeline(ctx, protocol != null ? protocol : fallbackProtocol);
                } else {
                    handshakeFailure(ctx, handshake.cause());
                }
            } finally {
                ctx.fireUserEventTriggered(evt);
                if (!ctx.isRemoved()) {
                    ctx.pipeline().remove(this);
                }
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        for (Object msg : held) {
            ctx.fireChannelRead(msg);
        }
        if (!held.isEmpty()) {
            ctx.fireChannelReadComplete();
        }
        held.clear();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        logger.debug("{}: failure before the application protocol was chosen: {}", ctx.channel(), cause);
        ctx.fireExceptionCaught(cause);
        if (!configured) {
            ctx.close();
        }
    }
}
