package io.rill.channel.internal;

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
 * <p>If accepting fails (EMFILE, ENFILE, ENOBUFS, or anything else the transport throws), the
 * failure is fired as {@code exceptionCaught} and accepting pauses for
 * {@link RillProperties#CHANNEL_ACCEPT_BACKOFF_MILLIS}: the connection that could not be accepted
 * keeps the socket ready, and retrying at once would spin the loop. The first failure of an
 * episode (until an accept succeeds again) is logged once at WARN, naming the limit that was hit
 * and how to raise it; the rest at DEBUG, so an exhausted server does not flood its log. What the
 * warning needs (the descriptor limit, the resume task) is made with the loop, not when
 * descriptors are gone. One per server channel, event loop only.
 */
public final class AcceptLoop {

    private static final InternalLogger LOG = InternalLogger.get(AcceptLoop.class);
    /** Read with the first server channel, while a descriptor is free to read it with. */
    private static final String DESCRIPTOR_LIMIT = DescriptorLimit.AT_START;

    /** What the transport does for the loop. */
    public interface Acceptor {
        /**
         * Accepts one pending connection as a new child channel; null when none is pending (or it was dropped).
         *
         * @return the child, or null
         * @throws IOException if accepting fails; the loop logs it and pauses
         */
        Channel accept() throws IOException;

        /** Stop watching for connections (the pause began). */
        void stopAccepting();

        /** The pause ended: watch again if accepting is wanted (a read() is pending or AUTO_READ is on). */
        void resumeAccepting();
    }

    private final AbstractChannel server;
    private final Acceptor acceptor;
    /** Ends a pause; made up front so that pausing loads no class when descriptors are gone. */
    private final Runnable endPause = this::endPause;
    /** Accepting is paused after an accept error. */
    private boolean paused;
    /** Accepts have failed since the last one that succeeded; the episode's warning was logged. */
    private boolean failing;
    /** Failed bursts in the current episode. */
    private long failuresInEpisode;

    /**
     * The accept loop of {@code server}.
     *
     * @param server the listening channel
     * @param acceptor accepts one connection of the transport
     */
    public AcceptLoop(AbstractChannel server, Acceptor acceptor) {
        this.server = server;
        this.acceptor = acceptor;
    }

    /** {@return true during the pause after an accept error} The transport must not watch for connections then. */
    public boolean isPaused() {
        return paused;
    }

    /**
     * Accepts one burst; true if it stopped because no connection was left pending.
     *
     * @return true if no connection was left pending
     */
    public boolean acceptBurst() {
        ChannelConfig config = server.config();
        ChannelPipeline pipeline = server.pipeline();
        int max = config.getMaxMessagesPerRead();
        Throwable failure = null;
        boolean drained = false;
        for (int accepted = 0; accepted < max; accepted++) {
            Channel child;
            try {
                child = acceptor.accept();
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable t) {
                failure = t; // not only IOException: a server that stops accepting for good is worse than a pause
                break;
            }
            if (child == null) {
                drained = true;
                break;
            }
            endEpisode();
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

    /**
     * Fails every queued write: a listening channel writes nothing. For the transports' {@code doWrite}.
     *
     * @param in the listening channel's outbound buffer
     */
    public static void failWrites(ChannelOutboundBuffer in) {
        UnsupportedOperationException cause = new UnsupportedOperationException("a server channel does not write");
        while (in.remove(cause)) {
            // fail them all
        }
    }

    /**
     * The error a listening channel's {@code filterOutboundMessage} throws for {@code msg}.
     *
     * @param msg the refused message; the caller releases it
     * @return the exception
     */
    public static UnsupportedOperationException writeRefused(Object msg) {
        return new UnsupportedOperationException("a server channel does not write; refused a " + msg.getClass().getName());
    }

    private void pause(Throwable cause) {
        int millis = RillProperties.CHANNEL_ACCEPT_BACKOFF_MILLIS;
        failuresInEpisode++;
        if (!failing) {
            failing = true;
            String text = "accept() failed on {}: {}; {}. Not accepting for {} ms at a time"
                    + " (rill.channel.acceptBackoffMillis) until an accept succeeds; logged once until then";
            if (cause instanceof IOException) {
                LOG.warn(text, server, cause, advice(cause), millis); // the errno says it all; no stack trace
            } else {
                LOG.warn(text, server, cause, advice(cause), millis, cause);
            }
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("accept() failed again on {}: {}", server, cause);
        }
        paused = true;
        acceptor.stopAccepting();
        try {
            server.eventLoop().schedule(endPause, millis, TimeUnit.MILLISECONDS);
        } catch (RuntimeException | LinkageError e) {
            // Shutting down, or the timer cannot be used: better accept on than never again.
            endPause();
        }
    }

    private void endPause() {
        paused = false;
        if (server.isOpen()) {
            acceptor.resumeAccepting();
        }
    }

    /** An accept succeeded: the episode of failures, if any, is over. */
    private void endEpisode() {
        if (failing) {
            failing = false;
            LOG.info("accept() works again on {} after {} failed burst(s)", server, failuresInEpisode);
            failuresInEpisode = 0;
        }
    }

    /** What the operator can do about {@code cause}, read from the JDK's or strerror's text. */
    static String advice(Throwable cause) {
        String text = String.valueOf(cause.getMessage());
        if (text.contains("Too many open files in system")) {
            return "the system-wide limit on open files is reached (ENFILE); raise it with sysctl fs.file-max";
        }
        if (text.contains("Too many open files")) {
            return "this process may open " + DESCRIPTOR_LIMIT + " descriptors (EMFILE); raise the limit"
                    + " with `ulimit -n` (LimitNOFILE= under systemd), or serve fewer connections";
        }
        return "connections wait in the backlog meanwhile";
    }
}
