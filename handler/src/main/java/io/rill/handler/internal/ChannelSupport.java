package io.rill.handler.internal;

import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.AbstractScheduledEventExecutor;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.Ticker;

/** Small pieces several handler packages share; not exported. */
public final class ChannelSupport {

    private ChannelSupport() {
    }

    /**
     * The clock {@code executor} measures its scheduled deadlines with. Handlers that compare
     * timestamps against scheduled tasks must read the same clock, or an {@code EmbeddedChannel}
     * test that moves its manual clock would see tasks fire at instants the handler never saw.
     */
    public static Ticker ticker(EventExecutor executor) {
        return executor instanceof AbstractScheduledEventExecutor scheduled
                ? scheduled.ticker() : Ticker.systemTicker();
    }

    /**
     * {@code promise}, or a fresh promise standing in for the channel's void promise (which refuses
     * listeners): a failure of the stand-in is reported the way the void promise would report it,
     * as {@code exceptionCaught}.
     */
    public static Promise<Void> listenable(ChannelHandlerContext ctx, Promise<Void> promise) {
        if (promise != ctx.voidPromise()) {
            return promise;
        }
        Promise<Void> standIn = ctx.newPromise();
        standIn.addListener(f -> {
            if (!f.isSuccess() && f.cause() != null) {
                ctx.voidPromise().tryFailure(f.cause());
            }
        });
        return standIn;
    }
}
