package io.rill.channel.socket;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import io.rill.channel.AbstractChannel;
import io.rill.channel.Channel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.ChannelPipeline;
import io.rill.util.InternalLogger;
import io.rill.util.RillProperties;

/**
 * The accept burst of a listening channel, shared by the transports: up to
 * {@code MAX_MESSAGES_PER_READ} connections, each fired as {@code channelRead} of its new
 * (unregistered) child, then one {@code channelReadComplete}.
 *
 * <p>If accepting fails with an I/O error (EMFILE, ENFILE, ENOBUFS) the error is logged and fired
 * as {@code exceptionCaught}, and accepting pauses for
 * {@link RillProperties#CHANNEL_ACCEPT_BACKOFF_MILLIS}: the connection that could not be accepted
 * keeps the socket ready, and retrying at once would spin the loop. One per server channel,
 * event loop only.
 */
public final class AcceptLoop {

    private static final InternalLogger LOG = InternalLogger.get(AcceptLoop.class);

    /** What the transport does for the loop. */
    public interface Acceptor {
        /** Accepts one pending connection as a new child channel; null when none is pending (or it was dropped). */
        Channel accept() throws IOException;

        /** Stop watching for connections (the pause began). */
        void stopAccepting();

        /** The pause ended: watch again if accepting is wanted (a read() is pending or AUTO_READ is on). */
        void resumeAccepting();
    }

    private final AbstractChannel server;
    private final Acceptor acceptor;
    /** Accepting is paused after an accept error. */
    private boolean paused;

    public AcceptLoop(AbstractChannel server, Acceptor acceptor) {
        this.server = server;
        this.acceptor = acceptor;
    }

    /** True during the pause after an accept error; the transport must not watch for connections then. */
    public boolean isPaused() {
        return paused;
    }

    /** Accepts one burst; true if it stopped because no connection was left pending. */
    public boolean acceptBurst() {
        ChannelConfig config = server.config();
        ChannelPipeline pipeline = server.pipeline();
        int max = config.getMaxMessagesPerRead();
        IOException failure = null;
        boolean drained = false;
        for (int accepted = 0; accepted < max; accepted++) {
            Channel child;
            try {
                child = acceptor.accept();
            } catch (IOException e) {
                failure = e;
                break;
            }
            if (child == null) {
                drained = true;
                break;
            }
            pipeline.fireChannelRead(child);
            if (!config.isAutoRead()) {
                break;
            }
        }
        if (failure != null && server.isOpen()) {
            pause(failure); // before readComplete, whose auto-read would re-arm accepting
        }
        pipeline.fireChannelReadComplete();
        if (failure != null && server.isOpen()) {
            pipeline.fireExceptionCaught(failure);
        }
        return drained;
    }

    /** Fails every queued write: a listening channel writes nothing. For the transports' {@code doWrite}. */
    public static void failWrites(ChannelOutboundBuffer in) {
        UnsupportedOperationException cause = new UnsupportedOperationException("a server channel does not write");
        while (in.remove(cause)) {
            // fail them all
        }
    }

    /** The error a listening channel's {@code filterOutboundMessage} throws for {@code msg}. */
    public static UnsupportedOperationException writeRefused(Object msg) {
        return new UnsupportedOperationException("a server channel does not write; refused a " + msg.getClass().getName());
    }

    private void pause(IOException cause) {
        int millis = RillProperties.CHANNEL_ACCEPT_BACKOFF_MILLIS;
        LOG.warn("accept() failed on " + server + "; not accepting for " + millis + " ms", cause);
        paused = true;
        acceptor.stopAccepting();
        server.eventLoop().schedule(() -> {
            paused = false;
            if (server.isOpen()) {
                acceptor.resumeAccepting();
            }
        }, millis, TimeUnit.MILLISECONDS);
    }
}
