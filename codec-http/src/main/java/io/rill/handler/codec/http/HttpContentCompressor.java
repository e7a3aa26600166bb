package io.rill.handler.codec.http;

import java.util.List;
import java.util.zip.Deflater;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.compression.ZlibEncoder;
import io.rill.handler.codec.compression.ZlibWrapper;
import io.rill.handler.codec.http.internal.PendingRequests;
import io.rill.handler.codec.http.internal.Vary;
import io.rill.util.concurrent.Promise;

/**
 * Compresses response bodies with gzip or deflate when the request's {@code Accept-Encoding}
 * allows it (q-values honoured, gzip preferred on a tie). Sits after an {@link HttpServerCodec}.
 *
 * <p>A response is left as it is when compressing it would be wrong or a waste: it answers
 * {@code HEAD}, is {@code 1xx}, {@code 204} or {@code 304}, already has a {@code Content-Encoding},
 * has a {@code Content-Type} that is compressed already (images, video, archives...), announces
 * (or, for a full response, has) fewer than {@code minBodySize} bytes, or is a streamed HTTP/1.0
 * response (no chunked coding to frame the compressed body). A compressed full response gets the
 * compressed length as its {@code Content-Length}, a streamed one becomes chunked; both gain
 * {@code Vary: accept-encoding} beside whatever {@code Vary} they had, and a strong {@code ETag}
 * becomes weak.
 *
 * <p><b>Bounded state.</b> Each request's chosen coding waits in a ring of
 * {@code maxPendingRequests} ({@link PendingRequests}) until its response is written. Requests
 * pipelined beyond that are only counted and their responses sent uncompressed, so a client that
 * pipelines 100 000 requests and never reads costs a fixed amount of memory here
 * (docs/security-cases.md, case H1-17).
 */
public class HttpContentCompressor implements ChannelHandler {

    /** Bodies smaller than this are not worth a compressor: 1 KiB. */
    public static final int DEFAULT_MIN_BODY_SIZE = 1024;
    /** Requests whose coding is remembered while they await their responses. */
    public static final int DEFAULT_MAX_PENDING_REQUESTS = 128;

    private final int level;
    private final int minBodySize;
    /** The coding chosen for each request awaiting its response. */
    private final PendingRequests<String> pending;
    /** The encoder of the response being streamed, or null. Loop-confined. */
    private EmbeddedChannel encoder;

    /** Compresses at zlib's default level bodies of at least {@link #DEFAULT_MIN_BODY_SIZE} bytes. */
    public HttpContentCompressor() {
        this(Deflater.DEFAULT_COMPRESSION, DEFAULT_MIN_BODY_SIZE, DEFAULT_MAX_PENDING_REQUESTS);
    }

    /**
     * @param level              1 (fastest) to 9 (smallest), or -1 for zlib's default (6)
     * @param minBodySize        bodies known to be smaller are sent as they are
     * @param maxPendingRequests requests remembered at once (see the class comment)
     */
    public HttpContentCompressor(int level, int minBodySize, int maxPendingRequests) {
        if (level < -1 || level > 9) {
            throw new IllegalArgumentException("level: " + level + " (expected: -1..9)");
        }
        if (minBodySize < 0 || maxPendingRequests < 1) {
            throw new IllegalArgumentException("minBodySize " + minBodySize + " must be >= 0 and maxPendingRequests "
                    + maxPendingRequests + " >= 1");
        }
        this.level = level;
        this.minBodySize = minBodySize;
        this.pending = new PendingRequests<>(maxPendingRequests);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()) {
            boolean head = request.method().equals(HttpMethod.HEAD);
            pending.add(head ? null : ContentCodings.negotiate(acceptEncoding(request.headers())));
        }
        ctx.fireChannelRead(msg);
    }

    /** Every {@code Accept-Encoding} field as one list (RFC 9110 §5.3), or null if there is none. */
    private static CharSequence acceptEncoding(HttpHeaders h) {
        CharSequence first = h.getCharSequence(HttpHeaderNames.ACCEPT_ENCODING);
        List<String> all = first == null ? null : h.getAll(HttpHeaderNames.ACCEPT_ENCODING);
        return all == null || all.size() == 1 ? first : String.join(",", all);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        Object out = msg;
        try {
            if (msg instanceof HttpResponse response && !response.status().isInformational()) {
                out = startResponse(ctx, response); // an interim (1xx) response leaves its request waiting
            } else if (msg instanceof HttpContent content && encoder != null) {
                boolean last = content instanceof LastHttpContent;
                ByteBuf data = compress(ctx, content, last);
                out = last ? new DefaultLastHttpContent(data, ((LastHttpContent) content).trailingHeaders())
                        : new DefaultHttpContent(data);
                content.release();
            }
        } catch (RuntimeException e) {
            closeEncoder();
            ReferenceCountUtil.release(msg);
            promise.tryFailure(e);
            return;
        }
        ctx.write(out, promise);
    }

    /** Decides about a final response; returns what to write in its place (itself, or a compressed full response). */
    private Object startResponse(ChannelHandlerContext ctx, HttpResponse response) {
        closeEncoder();
        String coding = pending.poll();
        if (!shouldCompress(response, coding)) {
            return response;
        }
        boolean gzip = coding.equals("gzip");
        encoder = new EmbeddedChannel(new ZlibEncoder(gzip ? ZlibWrapper.GZIP : ZlibWrapper.ZLIB, level));
        response.headers().set(HttpHeaderNames.CONTENT_ENCODING, gzip ? HttpHeaderValues.GZIP : HttpHeaderValues.DEFLATE);
        Vary.append(response.headers(), "accept-encoding");
        String etag = response.headers().get(HttpHeaderNames.ETAG);
        if (etag != null && etag.startsWith("\"")) {
            // The compressed bytes differ from the identity ones a strong tag names (RFC 9110 §8.8.3).
            response.headers().set(HttpHeaderNames.ETAG, "W/" + etag);
        }
        if (response instanceof FullHttpResponse full) {
            FullHttpResponse out = full.replace(compress(ctx, full, true));
            full.release();
            if (!HttpUtil.isTransferEncodingChunked(out)) {
                HttpUtil.setContentLength(out, out.content().readableBytes());
            }
            return out;
        }
        response.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
        HttpUtil.setTransferEncodingChunked(response, true);
        return response;
    }

    private boolean shouldCompress(HttpResponse response, String coding) {
        if (coding == null) {
            return false;
        }
        int status = response.status().code();
        HttpHeaders h = response.headers();
        if (status == 204 || status == 304 || h.contains(HttpHeaderNames.CONTENT_ENCODING)
                || ContentCodings.isCompressedType(h.getCharSequence(HttpHeaderNames.CONTENT_TYPE))) {
            return false;
        }
        if (response instanceof FullHttpResponse full) {
            return full.content().readableBytes() >= minBodySize;
        }
        long length = HttpUtil.getContentLength(response, -1);
        if (length >= 0 && length < minBodySize) {
            return false;
        }
        return response.protocolVersion().compareTo(HttpVersion.HTTP_1_1) >= 0;
    }

    /**
     * Runs {@code content}'s bytes through the encoder (ending the stream if {@code last}) and
     * returns what came out, as one buffer. Does not release {@code content}.
     */
    private ByteBuf compress(ChannelHandlerContext ctx, HttpContent content, boolean last) {
        EmbeddedChannel enc = encoder;
        if (content.content().isReadable()) {
            enc.writeOutbound(content.content().retain());
        }
        if (last) {
            enc.finish();
            encoder = null;
        }
        int size = 0;
        for (Object o : enc.outboundMessages()) {
            size += ((ByteBuf) o).readableBytes();
        }
        ByteBuf out = ctx.alloc().buffer(size);
        for (Object o; (o = enc.readOutbound()) != null; ) {
            ByteBuf piece = (ByteBuf) o;
            out.writeBytes(piece);
            piece.release();
        }
        return out;
    }

    private void closeEncoder() {
        EmbeddedChannel enc = encoder;
        encoder = null;
        if (enc != null) {
            enc.finishAndReleaseAll(); // a response abandoned half-way: free the deflater
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closeEncoder();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        closeEncoder();
    }
}
