package io.rill.handler.codec.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelClosedException;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.socket.ChannelInputShutdownEvent;
import io.rill.channel.socket.DuplexChannel;
import io.rill.channel.socket.LingeringClose;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.handler.codec.DecoderResult;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Promise;

/**
 * The server side of HTTP/1.1 in one handler: an {@link HttpRequestDecoder} inbound and an
 * {@link HttpResponseEncoder} outbound, plus what only the pair can do.
 * <ul>
 *   <li>A request the decoder rejects never reaches the application. Reading stops; the requests
 *       decoded before it are delivered and answered as usual, and once they are, the codec answers
 *       the bad one with the status the {@link HttpDecoderException} names ({@code 400}, 414, 431,
 *       501, 505) and {@code Connection: close} (RFC 9112 §9.3.2); the reason is logged at debug. A
 *       body that breaks mid-way ends in a failed {@link LastHttpContent}, answered the same way
 *       unless the application has already begun its own response. Either way the connection then
 *       closes lingering ({@link LingeringClose}), so the last response is not lost to a reset.</li>
 *   <li>A client that ends its output after its requests (half-close) gets every answer, then the
 *       connection closes: the codec turns on {@code ALLOW_HALF_CLOSURE} for its channel.</li>
 *   <li>Responses to {@code HEAD} are encoded without a body, whatever their headers say.</li>
 *   <li>Pipelining is bounded: while {@code maxPendingRequests} requests wait for their responses,
 *       the codec stops reading (CVE-2026-93491 grew a queue per pipelined request without bound).</li>
 *   <li>Responses written with the void promise (nobody waits for them) are encoded into one shared
 *       buffer until the next flush: pipelined answers then cost one buffer and one write, not one
 *       each. A write with a real promise first sends what is gathered, so order is kept.</li>
 *   <li>Time limits on the client ({@link HttpServerTimeouts}, on by default): an idle keep-alive
 *       connection is closed; a request head or body that comes too slowly (Slowloris, see
 *       docs/security-cases.md, case L-06) is answered {@code 408 Request Timeout} and closed.
 *       One timer per connection, moved lazily, so serving a request costs no timer operation.</li>
 * </ul>
 */
public class HttpServerCodec extends DecoderDelegatingHandler {

    private static final InternalLogger LOG = InternalLogger.get(HttpServerCodec.class);
    /** Requests read ahead of their answers by default before reading stops. */
    public static final int DEFAULT_MAX_PENDING_REQUESTS = 128;
    /** Gathered answers are passed to the outbound buffer at this size, flushed or not. */
    private static final int GATHER_LIMIT = 32 * 1024;

    private final RequestDecoder decoder;
    private final ResponseEncoder encoder = new ResponseEncoder();
    private final int maxPendingRequests;
    /** Per request awaiting its response, in order: whether it was HEAD. Loop-confined. */
    private final ArrayDeque<Boolean> pendingHead = new ArrayDeque<>();
    /** Set when reading was stopped for too many pending requests. */
    private boolean readingPaused;
    /** Set when this codec turned ALLOW_HALF_CLOSURE on; it turns it off again when it leaves the pipeline. */
    private boolean halfClosureTurnedOn;
    /** The refusal waiting for the responses ahead of it; null while the input is good. */
    private Refusal refusal;
    /**
     * The connection closes once every request read is answered: the peer ended its input, or a
     * body broke after the application began answering its request.
     */
    private boolean closeWhenAnswered;
    /** A final response head was written and its last content not yet. */
    private boolean responding;
    /** The response being written answers a HEAD request: no body goes out. */
    private boolean respondingToHead;
    /** The last response (or the refusal) is on its way and the connection is closing: later writes are refused. */
    private boolean closing;
    /** Encoded responses gathered since the last flush, or null. Loop-confined. */
    private ByteBuf gathered;
    /** Where a large body goes when gathering; reused, empty between writes. */
    private final List<Object> gatherOut = new ArrayList<>(2);
    /** The client's time limits (idle, header, body). */
    private final RequestDeadlines deadlines;

    /** With the default limits: {@link HttpDecoderConfig#DEFAULT}, 128 pending requests, {@link HttpServerTimeouts#DEFAULT}. */
    public HttpServerCodec() {
        this(HttpDecoderConfig.DEFAULT, DEFAULT_MAX_PENDING_REQUESTS);
    }

    /**
     * With {@link HttpServerTimeouts#DEFAULT}.
     *
     * @param config             the decoder's limits and rules
     * @param maxPendingRequests requests read ahead of their answers before reading stops; at least 1
     * @throws IllegalArgumentException if {@code maxPendingRequests} is below 1
     */
    public HttpServerCodec(HttpDecoderConfig config, int maxPendingRequests) {
        this(config, maxPendingRequests, HttpServerTimeouts.DEFAULT);
    }

    /**
     * With one timeout for both the idle connection and the request head.
     *
     * @param config             the decoder's limits and rules
     * @param maxPendingRequests requests read ahead of their answers before reading stops; at least 1
     * @param requestHeadTimeout both the idle and the header timeout of {@link HttpServerTimeouts}
     *                           (no body timeout); null for none at all
     * @throws IllegalArgumentException if {@code maxPendingRequests} is below 1
     */
    public HttpServerCodec(HttpDecoderConfig config, int maxPendingRequests, Duration requestHeadTimeout) {
        this(config, maxPendingRequests, requestHeadTimeout == null ? HttpServerTimeouts.NONE
                : new HttpServerTimeouts(requestHeadTimeout, requestHeadTimeout, null, 1));
    }

    /**
     * With every limit given.
     *
     * @param config             the decoder's limits and rules
     * @param maxPendingRequests requests read ahead of their answers before reading stops; at least 1
     * @param timeouts           the client's time limits; {@link HttpServerTimeouts#NONE} for none
     * @throws IllegalArgumentException if {@code maxPendingRequests} is below 1
     * @throws NullPointerException if {@code timeouts} is null
     */
    public HttpServerCodec(HttpDecoderConfig config, int maxPendingRequests, HttpServerTimeouts timeouts) {
        if (maxPendingRequests < 1) {
            throw new IllegalArgumentException("maxPendingRequests must be at least 1: " + maxPendingRequests);
        }
        if (timeouts == null) {
            throw new NullPointerException("timeouts");
        }
        this.decoder = new RequestDecoder(config);
        this.maxPendingRequests = maxPendingRequests;
        this.deadlines = new RequestDeadlines(timeouts, this::timedOut);
    }

    // ---------------------------------------------------------------- inbound: the decoder

    @Override
    ByteToMessageDecoder decoder() {
        return decoder;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        if (Boolean.FALSE.equals(ctx.channel().config().getOption(ChannelOption.ALLOW_HALF_CLOSURE))) {
            // A client may end its output after its last request and still wait for the answers (RFC 9112 §9.6).
            ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
            halfClosureTurnedOn = true;
        }
        if (ctx.channel().isActive()) {
            deadlines.waiting(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        deadlines.waiting(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        releaseGathered();
        stopDeadline();
        super.handlerRemoved(ctx);
        if (halfClosureTurnedOn) {
            restoreHalfClosure(ctx.channel());
        }
    }

    /**
     * The protocol that replaces this codec (a WebSocket, HTTP/2 by upgrade) did not ask for
     * half-closure: its peer's end of stream must close the connection again, or a peer that leaves
     * without a goodbye keeps its descriptor for good. If the end of stream came already, nobody
     * downstream will act on it: close once what was written is flushed.
     */
    private void restoreHalfClosure(Channel ch) {
        halfClosureTurnedOn = false;
        if (!ch.isOpen()) {
            return;
        }
        ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, false);
        if (ch instanceof DuplexChannel duplex && duplex.isInputShutdown()) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> ch.close());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseGathered();
        stopDeadline();
        super.channelInactive(ctx);
    }

    private void stopDeadline() {
        deadlines.stop();
    }

    private void releaseGathered() {
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
    }

    /** Looks at what the decoder produced before it goes on: refuses failures, notes request methods. */
    private void inspect(ChannelHandlerContext ctx, List<Object> out, int from) {
        for (int i = from; i < out.size(); i++) {
            Object msg = out.get(i);
            if (msg instanceof HttpRequest request) {
                if (request.decoderResult().isFailure()) {
                    for (int j = out.size() - 1; j >= i; j--) {
                        ReferenceCountUtil.release(out.remove(j));
                    }
                    refuse(ctx, request.decoderResult().cause(), false);
                    return;
                }
                pendingHead.add(request.method().equals(HttpMethod.HEAD));
                deadlines.serving();
                if (pendingHead.size() >= maxPendingRequests && !readingPaused) {
                    readingPaused = true;
                    ctx.channel().config().setAutoRead(false);
                }
            } else if (msg instanceof LastHttpContent last) {
                deadlines.serving();
                if (last.decoderResult().isFailure()) {
                    refuse(ctx, last.decoderResult().cause(), true); // the application still gets the failed end of its message
                }
            }
        }
    }

    /**
     * The input broke: no more requests are read, and once every request before the broken one is
     * answered, the refusal goes out (RFC 9112 §9.3.2: a pipelined request already received is
     * answered, in order) and the connection closes.
     *
     * @param bodyBroke the broken request's head reached the application (its body broke): the
     *                  refusal then answers that request, unless the application answers it first
     */
    private void refuse(ChannelHandlerContext ctx, Throwable cause, boolean bodyBroke) {
        if (refusal != null || closing) {
            return;
        }
        ctx.channel().config().setAutoRead(false);
        if (bodyBroke && pendingHead.isEmpty()) {
            closeWhenAnswered = true; // the application's response to the broken request has begun: it is the answer
        } else {
            refusal = new Refusal(cause instanceof HttpDecoderException e ? e.status() : HttpResponseStatus.BAD_REQUEST,
                    cause, bodyBroke);
        }
        finishIfAnswered(ctx);
    }

    /** The peer ended its input (ALLOW_HALF_CLOSURE): the requests it sent are answered, then the connection closes. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        super.userEventTriggered(ctx, evt); // the decoder reads what is left first
        if (evt == ChannelInputShutdownEvent.INSTANCE && ctx.channel().isOpen()) {
            closeWhenAnswered = true;
            finishIfAnswered(ctx);
        }
    }

    /** Sends the refusal, or closes after a half-close, once the responses it must wait for are written. */
    private void finishIfAnswered(ChannelHandlerContext ctx) {
        if (closing || responding) {
            return;
        }
        Refusal r = refusal;
        int unanswered = pendingHead.size();
        if (r != null && unanswered == (r.answersLastRequest ? 1 : 0)) {
            pendingHead.clear();
            sendRefusal(ctx, r);
        } else if (unanswered == 0 && closeWhenAnswered) {
            closing = true; // the application answered everything itself: nothing is left to say
            writeGathered(ctx);
            LingeringClose.closeAfter(ctx.writeAndFlush(Unpooled.EMPTY_BUFFER), ctx);
        }
    }

    private void sendRefusal(ChannelHandlerContext ctx, Refusal r) {
        closing = true;
        writeGathered(ctx); // answers to the requests before this one go first
        if (LOG.isDebugEnabled()) {
            LOG.debug("Refused a request from {} with {}: {}", ctx.channel().remoteAddress(), r.status, r.cause.getMessage());
        }
        byte[] body = (r.status + "\n").getBytes(StandardCharsets.US_ASCII);
        String head = "HTTP/1.1 " + r.status + "\r\nContent-Type: text/plain; charset=us-ascii\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n\r\n";
        ByteBuf response = ctx.alloc().buffer(head.length() + body.length);
        response.writeCharSequence(head, StandardCharsets.US_ASCII);
        response.writeBytes(body);
        // Past our own encoder: it may be half-way through an application response that never ends.
        LingeringClose.closeAfter(ctx.writeAndFlush(response), ctx);
    }

    /** A deadline of {@link HttpServerTimeouts} passed. */
    private void timedOut(ChannelHandlerContext ctx, RequestDeadlines.Phase phase, Duration limit) {
        if (phase == RequestDeadlines.Phase.WAITING) {
            LOG.debug("Closing {}: idle for {} ms", ctx.channel(), limit.toMillis());
            ctx.close();
            return;
        }
        boolean body = phase == RequestDeadlines.Phase.BODY;
        HttpDecoderException cause = new HttpDecoderException(HttpResponseStatus.REQUEST_TIMEOUT, body
                ? "the request body came slower than the body timeout allows (" + limit.toMillis() + " ms)"
                : "no complete request head within the header timeout (" + limit.toMillis() + " ms)");
        decoder.abandon();
        refuse(ctx, cause, body);
        if (body) {
            // The application holds the head: it learns that its body ended in failure.
            LastHttpContent last = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            last.setDecoderResult(DecoderResult.failure(cause));
            ctx.fireChannelRead(last);
            ctx.fireChannelReadComplete();
        }
    }

    /** A refusal waiting for the responses ahead of it. */
    private record Refusal(HttpResponseStatus status, Throwable cause, boolean answersLastRequest) {
    }

    // ---------------------------------------------------------------- outbound: the encoder

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (closing) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new ChannelClosedException("the connection is closing after a refused request or the"
                    + " peer's end of input; every request it sent was answered"));
            return;
        }
        if (msg instanceof HttpResponse response && !response.status().isInformational()) {
            startResponse(ctx);
        }
        if (promise == ctx.voidPromise() && msg instanceof HttpObject http) {
            gather(ctx, http);
        } else {
            writeGathered(ctx);
            encoder.write(ctx, msg, promise);
        }
        if (responding && msg instanceof LastHttpContent) {
            responding = false;
            if (pendingHead.isEmpty() && decoder.progress() == HttpObjectDecoder.Progress.BETWEEN) {
                deadlines.waiting(ctx); // every request read so far is answered: wait for the next one
            }
            finishIfAnswered(ctx);
        }
    }

    private void gather(ChannelHandlerContext ctx, HttpObject msg) {
        try {
            gathered = encoder.encodeTo(ctx, msg, gathered, gatherOut);
        } finally {
            ReferenceCountUtil.release(msg);
        }
        for (int i = 0; i < gatherOut.size(); i++) {
            ctx.write(gatherOut.get(i), ctx.voidPromise()); // a large body, after what was gathered before it
        }
        gatherOut.clear();
        if (gathered != null && gathered.readableBytes() >= GATHER_LIMIT) {
            // Into the outbound buffer, where it counts toward writability: a burst of pipelined
            // requests then stops being read once the answers pass the high water mark.
            writeGathered(ctx);
        }
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

    /** A final response head is being written: it answers the oldest request waiting. */
    private void startResponse(ChannelHandlerContext ctx) {
        respondingToHead = Boolean.TRUE.equals(pendingHead.poll());
        responding = true;
        if (readingPaused && pendingHead.size() <= maxPendingRequests / 2) {
            readingPaused = false;
            if (refusal == null) {
                ctx.channel().config().setAutoRead(true);
            }
        }
    }

    private final class RequestDecoder extends HttpRequestDecoder {
        RequestDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            int from = out.size();
            int before = in.readableBytes();
            super.decode(ctx, in, out);
            inspect(ctx, out, from);
            switch (progress()) {
                case HEAD -> deadlines.headInProgress(ctx);
                case BODY -> deadlines.bodyInProgress(ctx, before - in.readableBytes());
                default -> { }
            }
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            int from = out.size();
            super.decodeLast(ctx, in, out);
            inspect(ctx, out, from);
        }
    }

    private final class ResponseEncoder extends HttpResponseEncoder {
        @Override
        protected boolean isContentAlwaysEmpty(HttpResponse response) {
            return respondingToHead || super.isContentAlwaysEmpty(response);
        }
    }
}
