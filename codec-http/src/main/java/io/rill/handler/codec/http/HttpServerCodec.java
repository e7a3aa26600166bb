package io.rill.handler.codec.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelClosedException;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Promise;

/**
 * The server side of HTTP/1.1 in one handler: an {@link HttpRequestDecoder} inbound and an
 * {@link HttpResponseEncoder} outbound, plus what only the pair can do.
 * <ul>
 *   <li>A request the decoder rejects never reaches the application: the codec answers it with
 *       the status the {@link HttpDecoderException} names ({@code 400}, 414, 431, 501, 505),
 *       {@code Connection: close}, then closes; the reason is logged at debug. A body that breaks
 *       mid-way ends in a failed {@link LastHttpContent}, answered and closed the same way.</li>
 *   <li>Responses to {@code HEAD} are encoded without a body, whatever their headers say.</li>
 *   <li>Pipelining is bounded: while {@code maxPendingRequests} requests wait for their responses,
 *       the codec stops reading (CVE-2026-93491 grew a queue per pipelined request without bound).</li>
 *   <li>Responses written with the void promise (nobody waits for them) are encoded into one shared
 *       buffer until the next flush: pipelined answers then cost one buffer and one write, not one
 *       each. A write with a real promise first sends what is gathered, so order is kept.</li>
 *   <li>Optionally, a request-head timeout: a connection that does not complete a request head
 *       within it, from when it opens and from the end of each response it was waiting for, is
 *       closed. That ends idle keep-alive connections and Slowloris clients (SECURITY-CASES L-06)
 *       at no cost per request; a slow body is left to an idle-state handler.</li>
 * </ul>
 */
public class HttpServerCodec extends DecoderDelegatingHandler {

    private static final InternalLogger LOG = InternalLogger.get(HttpServerCodec.class);
    public static final int DEFAULT_MAX_PENDING_REQUESTS = 128;

    private final RequestDecoder decoder;
    private final ResponseEncoder encoder = new ResponseEncoder();
    private final int maxPendingRequests;
    /** Per request awaiting its response, in order: whether it was HEAD. Loop-confined. */
    private final ArrayDeque<Boolean> pendingHead = new ArrayDeque<>();
    /** Set when reading was stopped for too many pending requests. */
    private boolean readingPaused;
    /** Set once an error response was sent: the connection is closing and later writes are refused. */
    private boolean rejected;
    /** Encoded responses gathered since the last flush, or null. Loop-confined. */
    private ByteBuf gathered;
    /** Where a large body goes when gathering; reused, empty between writes. */
    private final List<Object> gatherOut = new ArrayList<>(2);
    /** The request-head timeout, or null without one. */
    private final RequestHeadDeadline headDeadline;

    public HttpServerCodec() {
        this(HttpDecoderConfig.DEFAULT, DEFAULT_MAX_PENDING_REQUESTS);
    }

    public HttpServerCodec(HttpDecoderConfig config, int maxPendingRequests) {
        this(config, maxPendingRequests, null);
    }

    /**
     * @param requestHeadTimeout how long a connection may take to send a complete request head,
     *                           from when it opens and from the end of each response it was
     *                           waiting for; null for no limit
     */
    public HttpServerCodec(HttpDecoderConfig config, int maxPendingRequests, Duration requestHeadTimeout) {
        if (maxPendingRequests < 1) {
            throw new IllegalArgumentException("maxPendingRequests must be at least 1: " + maxPendingRequests);
        }
        if (requestHeadTimeout != null && (requestHeadTimeout.isNegative() || requestHeadTimeout.isZero())) {
            throw new IllegalArgumentException("requestHeadTimeout must be positive: " + requestHeadTimeout);
        }
        this.decoder = new RequestDecoder(config);
        this.maxPendingRequests = maxPendingRequests;
        this.headDeadline = requestHeadTimeout == null ? null : new RequestHeadDeadline(requestHeadTimeout.toNanos());
    }

    // ---------------------------------------------------------------- inbound: the decoder

    @Override
    ByteToMessageDecoder decoder() {
        return decoder;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        if (headDeadline != null && ctx.channel().isActive()) {
            headDeadline.await(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (headDeadline != null) {
            headDeadline.await(ctx);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        releaseGathered();
        stopDeadline();
        super.handlerRemoved(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseGathered();
        stopDeadline();
        super.channelInactive(ctx);
    }

    private void stopDeadline() {
        if (headDeadline != null) {
            headDeadline.stop();
        }
    }

    private void releaseGathered() {
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
    }

    /** Looks at what the decoder produced before it goes on: rejects failures, notes request methods. */
    private void inspect(ChannelHandlerContext ctx, List<Object> out, int from) {
        for (int i = from; i < out.size(); i++) {
            Object msg = out.get(i);
            if (msg instanceof HttpRequest request) {
                if (request.decoderResult().isFailure()) {
                    for (int j = out.size() - 1; j >= i; j--) {
                        ReferenceCountUtil.release(out.remove(j));
                    }
                    reject(ctx, request.decoderResult().cause());
                    return;
                }
                pendingHead.add(request.method().equals(HttpMethod.HEAD));
                if (headDeadline != null) {
                    headDeadline.headArrived();
                }
                if (pendingHead.size() >= maxPendingRequests && !readingPaused) {
                    readingPaused = true;
                    ctx.channel().config().setAutoRead(false);
                }
            } else if (msg instanceof LastHttpContent last && last.decoderResult().isFailure()) {
                reject(ctx, last.decoderResult().cause()); // the application still gets the failed end of its message
            }
        }
    }

    private void reject(ChannelHandlerContext ctx, Throwable cause) {
        if (rejected) {
            return;
        }
        rejected = true;
        writeGathered(ctx); // answers to the requests before this one go first
        HttpResponseStatus status = cause instanceof HttpDecoderException e ? e.status() : HttpResponseStatus.BAD_REQUEST;
        if (LOG.isDebugEnabled()) {
            LOG.debug("Rejected a request from {0} with {1}: {2}", ctx.channel().remoteAddress(), status, cause.getMessage());
        }
        byte[] body = (status + "\n").getBytes(StandardCharsets.US_ASCII);
        String head = "HTTP/1.1 " + status + "\r\nContent-Type: text/plain; charset=us-ascii\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n\r\n";
        ByteBuf response = ctx.alloc().buffer(head.length() + body.length);
        response.writeCharSequence(head, StandardCharsets.US_ASCII);
        response.writeBytes(body);
        // Past our own encoder: the application may be half-way through a response of its own.
        ctx.writeAndFlush(response).addListener(f -> ctx.close());
    }

    // ---------------------------------------------------------------- outbound: the encoder

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (rejected) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new ChannelClosedException("the connection is closing after a rejected request"));
            return;
        }
        boolean ends = headDeadline != null && msg instanceof LastHttpContent;
        if (promise == ctx.voidPromise() && msg instanceof HttpObject http) {
            gather(ctx, http);
        } else {
            writeGathered(ctx);
            encoder.write(ctx, msg, promise);
        }
        if (ends && pendingHead.isEmpty()) {
            headDeadline.await(ctx); // every request read so far is answered: wait for the next head
        }
    }

    private void gather(ChannelHandlerContext ctx, HttpObject msg) {
        encoder.ctx = ctx;
        try {
            gathered = encoder.encodeTo(ctx, msg, gathered, gatherOut);
        } finally {
            ReferenceCountUtil.release(msg);
        }
        for (int i = 0; i < gatherOut.size(); i++) {
            ctx.write(gatherOut.get(i), ctx.voidPromise()); // a large body, after what was gathered before it
        }
        gatherOut.clear();
    }

    private void writeGathered(ChannelHandlerContext ctx) {
        ByteBuf buf = gathered;
        if (buf != null) {
            gathered = null;
            ctx.write(buf, ctx.voidPromise());
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        writeGathered(ctx);
        ctx.flush();
    }

    @Override
    public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
        writeGathered(ctx);
        ctx.close(promise);
    }

    /** A final response head was written: its request is answered. */
    private void responded(ChannelHandlerContext ctx) {
        pendingHead.poll();
        if (readingPaused && pendingHead.size() <= maxPendingRequests / 2) {
            readingPaused = false;
            ctx.channel().config().setAutoRead(true);
        }
    }

    private final class RequestDecoder extends HttpRequestDecoder {
        RequestDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            int from = out.size();
            super.decode(ctx, in, out);
            inspect(ctx, out, from);
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            int from = out.size();
            super.decodeLast(ctx, in, out);
            inspect(ctx, out, from);
        }
    }

    private final class ResponseEncoder extends HttpResponseEncoder {
        /** The codec's context, for the pipelining bookkeeping of {@link #isContentAlwaysEmpty}. */
        ChannelHandlerContext ctx;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
            this.ctx = ctx;
            super.write(ctx, msg, promise);
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpResponse response) {
            if (response.status().isInformational()) {
                return true; // an interim response: the request still waits for its final one
            }
            Boolean head = pendingHead.peek();
            responded(ctx);
            return Boolean.TRUE.equals(head) || super.isContentAlwaysEmpty(response);
        }
    }
}
