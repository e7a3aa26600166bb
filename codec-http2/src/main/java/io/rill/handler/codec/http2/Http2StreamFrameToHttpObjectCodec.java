package io.rill.handler.codec.http2;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.DefaultHttpContent;
import io.rill.handler.codec.http.DefaultLastHttpContent;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMessage;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.LastHttpContent;
import io.rill.handler.ssl.SslHandler;
import io.rill.util.concurrent.Promise;

/**
 * Lets HTTP/1 handlers ({@link HttpRequest}, {@link HttpResponse}, {@link HttpContent}, the
 * aggregator, ...) run unchanged on one HTTP/2 stream: put it first in the stream's pipeline
 * (an {@link Http2StreamChannel}'s, or right above {@link Http2FrameCodec} for a connection that
 * carries one stream).
 *
 * <p>Inbound, a HEADERS frame becomes an {@link HttpRequest} (server) or {@link HttpResponse}
 * (client) whose headers are the regular fields plus {@code host} from {@code :authority} and one
 * {@code cookie} joined from the split ones (RFC 9113 §8.2.3); DATA becomes {@link HttpContent};
 * the end of the stream becomes a {@link LastHttpContent}, carrying the trailers when a final
 * HEADERS ends it, or {@link LastHttpContent#EMPTY_LAST_CONTENT} right after a head that ended the
 * stream. A head followed by a body and no {@code content-length} says
 * {@code transfer-encoding: chunked}, so HTTP/1 code sees that a body follows; a response that
 * ends with its head says {@code content-length: 0} (unless it answers HEAD, or is 204 or 304). Informational (1xx) heads come as a response
 * and an empty last content each, before the final one.
 *
 * <p>Outbound, the reverse: a head becomes HEADERS without the fields HTTP/2 forbids
 * ({@code connection} and the fields it names, {@code keep-alive}, {@code transfer-encoding},
 * {@code upgrade}, {@code te} other than {@code trailers}), content becomes DATA (empty pieces are
 * skipped), the last content ends the stream (with trailers as a final HEADERS). A full message
 * with no content ends the stream with its HEADERS. A response to {@code HEAD} ends the stream
 * with its head; content written after it is released. A request's {@code :scheme} is the one
 * given to the constructor, or {@code https} when the connection has an {@link SslHandler} and
 * {@code http} otherwise.
 *
 * <p><b>Flow control.</b> Received content holds the peer's windows until someone says it was
 * consumed. An {@link Http2StreamChannel} does that itself when its pipeline reads a frame, so by
 * default this adapter does not. On a pipeline straight above {@link Http2FrameCodec}, construct it
 * with {@code returnsCredit} true: it then writes an {@link Http2WindowUpdateFrame} for each data
 * frame once it has passed the content on (consumption = handed to the HTTP/1 handler), and flushes
 * those at the end of the read.
 *
 * <p>The stream id is taken from the first frame received. A client's request written before that
 * carries 0, which a stream channel replaces by its own id; right above the codec, the adapter
 * reserves the next id from the codec ({@link Http2FrameCodec#reserveStreamId()}) instead. Other
 * messages (resets, GOAWAY, anything not HTTP) pass through both ways. All methods run on the
 * channel's event loop; one instance per stream.
 */
public final class Http2StreamFrameToHttpObjectCodec implements ChannelHandler {

    private final boolean server;
    private final boolean returnsCredit;
    /** The scheme of requests sent with an origin-form target; null: from the pipeline (TLS or not). */
    private final String scheme;
    /** The stream, learnt from the first frame received; 0 until then. */
    private int streamId;
    /** The final (non-1xx) head was received: a later HEADERS is trailers. */
    private boolean headReceived;
    /** The request (received on a server, sent on a client) is HEAD, so the response has no content. */
    private boolean headRequest;
    /** The stream ended on our side (or must, for HEAD): later content is released. */
    private boolean outboundEnded;
    /** Window updates were written during this read and wait for the flush at its end. */
    private boolean creditToFlush;

    /**
     * An adapter that leaves returning flow-control credit to the stream channel.
     *
     * @param server {@code true} on the server side (reads requests, writes responses)
     */
    public Http2StreamFrameToHttpObjectCodec(boolean server) {
        this(server, false, null);
    }

    /**
     * An adapter.
     *
     * @param server {@code true} on the server side (reads requests, writes responses)
     * @param returnsCredit {@code true} to write an {@link Http2WindowUpdateFrame} for each data
     *        frame once its content is passed on; {@code false} when the stream channel returns the
     *        credit itself ({@link Http2StreamChannel} does)
     * @param scheme the {@code :scheme} of requests written in origin form ({@code http} or
     *        {@code https}); {@code null} to use {@code https} exactly when the connection has an
     *        {@link SslHandler}
     */
    public Http2StreamFrameToHttpObjectCodec(boolean server, boolean returnsCredit, String scheme) {
        this.server = server;
        this.returnsCredit = returnsCredit;
        this.scheme = scheme;
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof Http2HeadersFrame headers) {
            learnStream(headers.streamId());
            try {
                readHeaders(ctx, headers);
            } catch (IllegalArgumentException e) {
                // Fields HTTP/1 cannot express (a malformed :status, a bad value): a malformed message (§8.1.1).
                ctx.writeAndFlush(new Http2ResetFrame(headers.streamId(), Http2Error.PROTOCOL_ERROR));
                ctx.fireExceptionCaught(e);
            }
        } else if (msg instanceof Http2DataFrame data) {
            learnStream(data.streamId());
            int credit = data.flowControlled();
            HttpContent content = data.endStream() ? new DefaultLastHttpContent(data.content())
                    : new DefaultHttpContent(data.content());
            ctx.fireChannelRead(content);
            if (returnsCredit && credit > 0) {
                ctx.write(new Http2WindowUpdateFrame(data.streamId(), credit), ctx.voidPromise());
                creditToFlush = true;
            }
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void readHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        Http2Headers fields = frame.headers();
        if (headReceived) {
            ctx.fireChannelRead(new DefaultLastHttpContent(io.rill.buffer.Unpooled.EMPTY_BUFFER,
                    Http1HeaderTranslation.toTrailers(fields)));
            return;
        }
        HttpMessage head;
        if (server) {
            HttpRequest request = Http1HeaderTranslation.toRequest(fields);
            headRequest = HttpMethod.HEAD.equals(request.method());
            head = request;
            headReceived = true;
        } else {
            HttpResponse response = Http1HeaderTranslation.toResponse(fields);
            boolean informational = response.status().isInformational();
            headReceived = !informational;
            if (frame.endStream() && !informational && !headRequest && !hasNoContent(response.status())
                    && !response.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
            }
            head = response;
            if (informational) {
                ctx.fireChannelRead(head);
                ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
                return;
            }
        }
        if (!frame.endStream() && !head.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
            head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        ctx.fireChannelRead(head);
        if (frame.endStream()) {
            ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
        }
    }

    private static boolean hasNoContent(HttpResponseStatus status) {
        return status.code() == 204 || status.code() == 304;
    }

    private void learnStream(int id) {
        if (streamId == 0) {
            streamId = id;
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (creditToFlush) {
            creditToFlush = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (msg instanceof HttpMessage head) {
            writeHead(ctx, head, promise);
        } else if (msg instanceof HttpContent content) {
            writeContent(ctx, content, promise);
        } else {
            ctx.write(msg, promise);
        }
    }

    private void writeHead(ChannelHandlerContext ctx, HttpMessage head, Promise<Void> promise) {
        Http2Headers fields;
        boolean informational = false;
        boolean noContent;
        if (head instanceof HttpResponse response) {
            fields = Http1HeaderTranslation.fromResponse(response);
            informational = response.status().isInformational();
            noContent = headRequest && !informational;
        } else if (head instanceof HttpRequest request) {
            fields = Http1HeaderTranslation.fromRequest(request, scheme != null ? scheme : schemeOf(ctx.channel()));
            noContent = false;
            headRequest = HttpMethod.HEAD.equals(request.method());
            if (streamId == 0 && !reserveStream(ctx)) {
                ReferenceCountUtil.release(head);
                promise.tryFailure(new IllegalStateException("no stream id left on this connection"));
                return;
            }
        } else {
            ReferenceCountUtil.release(head);
            promise.tryFailure(new IllegalArgumentException("neither a request nor a response: " + head));
            return;
        }
        if (!(head instanceof LastHttpContent full)) {
            outboundEnded = noContent;
            ctx.write(new Http2HeadersFrame(streamId, fields, noContent), promise);
            return;
        }
        // A full message: the head, then its content and trailers, all under the one promise.
        boolean empty = !full.content().isReadable() && full.trailingHeaders().isEmpty();
        if (informational) {
            full.release(); // a 1xx has no content (RFC 9110 §15.2)
            ctx.write(new Http2HeadersFrame(streamId, fields, false), promise);
            return;
        }
        if (noContent || empty) {
            full.release();
            outboundEnded = true;
            ctx.write(new Http2HeadersFrame(streamId, fields, true), promise);
            return;
        }
        ctx.write(new Http2HeadersFrame(streamId, fields, false), failOnly(ctx, promise));
        writeLast(ctx, full, promise);
    }

    private void writeContent(ChannelHandlerContext ctx, HttpContent content, Promise<Void> promise) {
        if (outboundEnded) {
            content.release();
            promise.trySuccess(null);
        } else if (content instanceof LastHttpContent last) {
            writeLast(ctx, last, promise);
        } else if (!content.content().isReadable()) {
            content.release(); // an empty DATA frame says nothing, and peers count them as a flood
            promise.trySuccess(null);
        } else {
            ctx.write(new Http2DataFrame(streamId, content.content(), false), promise);
        }
    }

    /** The content (if any) and the end of the stream, with trailers as a final HEADERS. */
    private void writeLast(ChannelHandlerContext ctx, LastHttpContent last, Promise<Void> promise) {
        outboundEnded = true;
        HttpHeaders trailers = last.trailingHeaders();
        if (trailers.isEmpty()) {
            ctx.write(new Http2DataFrame(streamId, last.content(), true), promise);
            return;
        }
        Http2Headers fields = Http1HeaderTranslation.fromTrailers(trailers);
        if (last.content().isReadable()) {
            ctx.write(new Http2DataFrame(streamId, last.content(), false), failOnly(ctx, promise));
        } else {
            last.release();
        }
        ctx.write(new Http2HeadersFrame(streamId, fields, true), promise);
    }

    /**
     * Right above the codec (no stream channel to number the stream), the stream's id is reserved
     * before its first HEADERS, so that its DATA can name it too.
     */
    private boolean reserveStream(ChannelHandlerContext ctx) {
        Http2FrameCodec codec = ctx.pipeline().get(Http2FrameCodec.class);
        if (codec == null) {
            return true; // a stream channel puts its own id in
        }
        try {
            streamId = codec.reserveStreamId();
            return true;
        } catch (Http2Exception e) {
            return false;
        }
    }

    /** A promise for a frame written before the last one of a message: only its failure is reported. */
    private static Promise<Void> failOnly(ChannelHandlerContext ctx, Promise<Void> promise) {
        Promise<Void> part = ctx.newPromise();
        part.addListener(f -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
            }
        });
        return part;
    }

    /** {@code https} when the connection (this channel or its parent) runs TLS. */
    private static String schemeOf(Channel channel) {
        for (Channel c = channel; c != null; c = c.parent()) {
            if (c.pipeline().get(SslHandler.class) != null) {
                return "https";
            }
        }
        return "http";
    }
}
