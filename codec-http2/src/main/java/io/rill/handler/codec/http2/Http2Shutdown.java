package io.rill.handler.codec.http2;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Promise;

/**
 * How one HTTP/2 connection ends gracefully (RFC 9113 §6.8): GOAWAY, the streams up to the last
 * one the peer opened still served, then the close. A connection error ends it at once: the codec
 * stops reading and sends {@link #goAway} itself.
 *
 * <p>The graceful shutdown of a server has two GOAWAYs: the first names the highest possible
 * stream and is followed by a PING, since requests the client sent before it saw that GOAWAY are
 * still to be served; when the PING comes back (one round trip later, or after a bound) the final
 * GOAWAY names the last stream really opened, and the connection closes once the open streams are
 * done, or after {@value #SHUTDOWN_GRACE_MILLIS} ms. A client has no such race: one GOAWAY.
 *
 * <p>Its port: the channel's context (attached once the codec is in a pipeline), the frame writer
 * and the send side's buffer for the frames, the table of open streams (read only: the connection
 * closes them and calls {@link #streamsClosed()} when none is left), and the last stream the peer
 * opened.
 */
final class Http2Shutdown {

    /** The payload of the PING that times the final GOAWAY of a graceful shutdown ("RILLBYE!"). */
    private static final long SHUTDOWN_PING = 0x52494C4C4259_4521L;
    /** How long a graceful shutdown waits for that PING before sending the final GOAWAY anyway. */
    private static final long SHUTDOWN_PING_WAIT_MILLIS = 2_000;
    /** How long a graceful shutdown waits for open streams to finish before closing anyway. */
    private static final long SHUTDOWN_GRACE_MILLIS = 30_000;

    private final boolean server;
    private final Http2FrameWriter writer;
    private final Http2Sender sender;
    /** The open streams; read here to know when none is left. */
    private final IntMap<Http2Stream> streams;
    /** The last stream the peer opened, which a GOAWAY names. */
    private final IntSupplier lastPeerStreamId;
    private ChannelHandlerContext ctx;

    private boolean goAwaySent;
    /** Set once a graceful shutdown began: completed by the close. */
    private Promise<Void> shutdownPromise;

    Http2Shutdown(boolean server, Http2FrameWriter writer, Http2Sender sender, IntMap<Http2Stream> streams,
            IntSupplier lastPeerStreamId) {
        this.server = server;
        this.writer = writer;
        this.sender = sender;
        this.streams = streams;
        this.lastPeerStreamId = lastPeerStreamId;
    }

    /** The codec is in a pipeline: the channel to close. */
    void attach(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Whether this endpoint sent GOAWAY: the peer's new streams are ignored, and we open none. */
    boolean goAwaySent() {
        return goAwaySent;
    }

    /** Sends GOAWAY naming the last stream the peer opened; new streams above it are then ignored. */
    void goAway(Http2Error error, String debug) {
        goAwaySent = true;
        writer.writeGoAway(sender.buffer(), lastPeerStreamId.getAsInt(), error, debug);
    }

    /** A PING acknowledgement: if it is ours, one round trip passed since the first GOAWAY. */
    void pingAcknowledged(long data) {
        if (data == SHUTDOWN_PING && shutdownPromise != null && !goAwaySent) {
            finalGoAway(); // a round trip after the first GOAWAY: what the peer sent before it has arrived
        }
    }

    /**
     * The graceful shutdown (see the class comment); a second call only waits for the first.
     *
     * @param promise completed by the close
     */
    void shutdownGracefully(Promise<Void> promise) {
        if (shutdownPromise != null) {
            if (promise != ctx.voidPromise()) { // the transport's repeated closes add nothing to wait for
                shutdownPromise.addListener(f -> promise.trySuccess(null));
            }
            return;
        }
        // The void promise (the transport's, at the peer's end of stream) takes no listener; later closes need one.
        shutdownPromise = promise == ctx.voidPromise() ? ctx.newPromise() : promise;
        ctx.executor().schedule(this::finishShutdown, SHUTDOWN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        if (goAwaySent) {
            sender.flush();
            finishShutdownIfIdle();
        } else if (server) {
            writer.writeGoAway(sender.buffer(), Http2Settings.MAX_WINDOW_SIZE, Http2Error.NO_ERROR, "shutting down");
            writer.writePing(sender.buffer(), SHUTDOWN_PING, false);
            sender.flush();
            ctx.executor().schedule(() -> {
                if (!goAwaySent) {
                    finalGoAway();
                }
            }, SHUTDOWN_PING_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            finalGoAway();
        }
    }

    /**
     * The close at the peer's end of stream, once the streams that can never complete were reset:
     * one GOAWAY and the close when the streams left are answered, without the PING of
     * {@link #shutdownGracefully}, which could not come back.
     */
    void inputEnded(Promise<Void> promise) {
        if (!goAwaySent) {
            goAway(Http2Error.NO_ERROR, "end of stream");
        }
        shutdownGracefully(promise);
        sender.flush();
        finishShutdownIfIdle();
    }

    /** The last open stream closed: a shutdown that sent its final GOAWAY is done. */
    void streamsClosed() {
        if (shutdownPromise != null && goAwaySent) {
            finishShutdown();
        }
    }

    private void finalGoAway() {
        goAway(Http2Error.NO_ERROR, "shutting down");
        sender.flush();
        finishShutdownIfIdle();
    }

    private void finishShutdownIfIdle() {
        if (streams.isEmpty()) {
            finishShutdown();
        }
    }

    private void finishShutdown() {
        Promise<Void> promise = shutdownPromise;
        if (promise == null || promise.isDone()) {
            return;
        }
        sender.flush();
        ctx.close(promise);
    }
}
