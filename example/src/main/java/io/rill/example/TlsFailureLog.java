package io.rill.example;

import javax.net.ssl.SSLException;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.ssl.SslHandler;
import io.rill.handler.ssl.SslHandshakeCompletionEvent;
import io.rill.util.InternalLogger;

/**
 * Logs a failed TLS handshake (or a later TLS error) of a server's connection as one line naming
 * the peer and the reason (a client that rejects the self-signed certificate, a client that speaks
 * no TLS, ...) instead of the failure reaching the end of the pipeline as a warning with a stack
 * trace. It leaves the close to the {@link SslHandler}, which sends its alert first and lingers so
 * that the alert is not lost to a reset. It sits right behind the {@link SslHandler}: the handshake's exception and its
 * completion event both pass it first, and the later of the two is not logged again.
 */
final class TlsFailureLog implements ChannelHandler {

    private static final InternalLogger LOG = InternalLogger.get(TlsFailureLog.class);

    /** The server named in the log line; null for a client, which reports the failure itself (quiet). */
    private final String server;
    /** True once this connection's failure was logged; loop thread only. */
    private boolean logged;

    private TlsFailureLog(String server) {
        this.server = server;
    }

    /** Puts one behind the {@link SslHandler} of {@code ch}'s pipeline; call after adding TLS. */
    static void addBehindTls(Channel ch, String server) {
        String tls = ch.pipeline().context(SslHandler.class).name();
        ch.pipeline().addAfter(tls, "tls-failure-log", forServer(server));
    }

    /** A new one for one connection of {@code server} (named in the log line). */
    static TlsFailureLog forServer(String server) {
        return new TlsFailureLog(server);
    }

    /**
     * Puts a quiet one behind the {@link SslHandler} of a client connection: the client example
     * reports the failure in its own one line ({@link ClientTls#awaitHandshake}), so it is only
     * kept from the end of the pipeline.
     */
    static void quietBehindTls(Channel ch) {
        String tls = ch.pipeline().context(SslHandler.class).name();
        ch.pipeline().addAfter(tls, "tls-failure-log", new TlsFailureLog(null));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent handshake && !handshake.isSuccess()) {
            log(ctx, handshake.cause());
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (isTls(cause)) {
            log(ctx, cause);
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    private void log(ChannelHandlerContext ctx, Throwable cause) {
        if (!logged && server != null) {
            SslHandler tls = ctx.pipeline().get(SslHandler.class);
            boolean inHandshake = tls == null || !tls.handshakeFuture().isSuccess();
            // The usual cause with a self-signed certificate, whatever words the TLS engine found for it.
            LOG.info("{}: TLS with {} failed: {}{}", server, ctx.channel().remoteAddress(), reason(cause),
                    inHandshake ? " (a client that does not trust the self-signed certificate fails so:"
                            + " give it the printed PEM, or -k / --insecure)" : "");
        }
        logged = true;
    }

    private static boolean isTls(Throwable t) {
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    /** The innermost message: the layers around an SSLException repeat it with their class names. */
    static String reason(Throwable t) {
        Throwable root = t;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 8; depth++) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
