package io.rill.example;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.compression.DecompressionException;
import io.rill.handler.codec.compression.DecompressionLimitException;
import io.rill.util.InternalLogger;

/**
 * Right after port-unification's gzip decoder: a stream the decoder refused (a bomb past one of
 * the limits, or corrupt data) closes the connection with a log line that says why, naming the
 * option that raises the limit. Other errors go on to the protocol's own handlers.
 */
final class InflateLimitReporter implements ChannelHandler {
    private static final InternalLogger LOG = InternalLogger.get(InflateLimitReporter.class);

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof DecompressionException)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        if (cause instanceof DecompressionLimitException limit) {
            LOG.warn("Closing {}: {} (raise with --{})", ctx.channel().remoteAddress(), cause.getMessage(),
                    limit.limitName().equals("maxRatio") ? PortUnificationServer.MAX_INFLATE_RATIO.name
                            : PortUnificationServer.MAX_INFLATED.name);
        } else {
            LOG.info("Closing {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
        }
        ctx.close();
    }
}
