package io.rill.handler.codec.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.Deflater;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.compression.BrotliEncoder;
import io.rill.handler.codec.compression.CompressionLibrary;
import io.rill.handler.codec.compression.ZlibEncoder;
import io.rill.handler.codec.compression.ZlibWrapper;
import io.rill.handler.codec.compression.ZstdEncoder;
import io.rill.handler.codec.http.internal.PendingRequests;
import io.rill.handler.codec.http.internal.Vary;
import io.rill.util.concurrent.Promise;

/**
 * Compresses response bodies with br (brotli), zstd, gzip or deflate, chosen by the request's
 * {@code Accept-Encoding} (RFC 9110 §12.5.3): the highest q-value wins, {@code *} stands for any
 * coding the request does not name, {@code q=0} refuses, and a tie goes to the coding that comes
 * first in this handler's {@linkplain Builder#codings preference}. Sits after an
 * {@link HttpServerCodec}.
 *
 * <pre>{@code
 * pipeline.addLast(new HttpServerCodec(),
 *         HttpContentCompressor.builder().codings("zstd", "br", "gzip").brotliQuality(5).build(),
 *         new MyHandler());
 * }</pre>
 *
 * <p><b>Optional libraries.</b> br needs brotli4j and zstd needs zstd-jni (see
 * {@link CompressionLibrary}); rill-codec-http depends on neither. A coding whose library does
 * not load here is left out of the preference, so it is never chosen, and a client that asks only
 * for it is served plain. By default the preference is {@link #DEFAULT_CODINGS}: zstd and br first
 * where their jars are present, else gzip.
 *
 * <p>A response is left as it is when compressing it would be wrong or a waste: it answers
 * {@code HEAD} or {@code CONNECT}, is {@code 1xx}, {@code 204}, {@code 206} or {@code 304} (a range
 * names bytes of the identity body), already has a {@code Content-Encoding}, has a
 * {@code Content-Type} that is compressed already (images, video, archives...), announces (or, for
 * a full response, has) fewer than {@code minBodySize} bytes, or is a streamed HTTP/1.0 response
 * (no chunked coding to frame the compressed body). A compressed full response gets the
 * compressed length as its {@code Content-Length}, a streamed one becomes chunked; both gain
 * {@code Vary: accept-encoding} beside whatever {@code Vary} they had, and a strong {@code ETag}
 * becomes weak. A streamed body must come as {@link HttpContent}: a {@code FileRegion} cannot be
 * compressed, and one written after a compressed head fails its write.
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
    /**
     * The default preference, most preferred first. zstd leads br because at their default levels
     * (3 and quality 4) it compressed responses of 2 KiB and 64 KiB faster in the microbench
     * {@code HttpContentCompressBenchmark}, to a similar size; gzip serves every other client.
     */
    public static final List<String> DEFAULT_CODINGS = List.of(ContentCodings.ZSTD, ContentCodings.BR,
            ContentCodings.GZIP, ContentCodings.DEFLATE);

    /** The codings this handler may choose, most preferred first; only available ones. */
    private final List<String> codings;
    private final int gzipLevel;
    private final int brotliQuality;
    private final int zstdLevel;
    private final int minBodySize;
    /** The coding chosen for each request awaiting its response. */
    private final PendingRequests<String> pending;
    /** The encoder of the response being streamed, or null. Loop-confined. */
    private EmbeddedChannel encoder;

    /**
     * Compresses with the {@linkplain Builder defaults}: {@link #DEFAULT_CODINGS} (those available),
     * bodies of at least {@link #DEFAULT_MIN_BODY_SIZE} bytes.
     */
    public HttpContentCompressor() {
        this(builder());
    }

    /**
     * The default codings with the given gzip/deflate level and bounds; {@link #builder()} sets
     * every knob.
     *
     * @param level              gzip and deflate level: 1 (fastest) to 9 (smallest), or -1 for zlib's default (6)
     * @param minBodySize        bodies known to be smaller are sent as they are
     * @param maxPendingRequests requests remembered at once (see the class comment)
     */
    public HttpContentCompressor(int level, int minBodySize, int maxPendingRequests) {
        this(builder().gzipLevel(level).minBodySize(minBodySize).maxPendingRequests(maxPendingRequests));
    }

    /**
     * For subclasses; others call {@link Builder#build()}.
     *
     * @param settings read once, later changes to the builder do not reach this handler
     */
    protected HttpContentCompressor(Builder settings) {
        List<String> usable = new ArrayList<>(settings.codings.size());
        for (String c : settings.codings) {
            if (ContentCodings.isAvailable(c)) {
                usable.add(c);
            }
        }
        this.codings = List.copyOf(usable);
        this.gzipLevel = settings.gzipLevel;
        this.brotliQuality = settings.brotliQuality;
        this.zstdLevel = settings.zstdLevel;
        this.minBodySize = settings.minBodySize;
        this.pending = new PendingRequests<>(settings.maxPendingRequests);
    }

    /** @return a builder with the defaults of {@link #HttpContentCompressor()} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The codings this handler may answer with: the configured preference without those whose
     * library is missing.
     *
     * @return canonical tokens ({@code "zstd"}, {@code "br"}, {@code "gzip"}, {@code "deflate"}), most preferred first
     */
    public List<String> codings() {
        return codings;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()) {
            // HEAD has no body to compress; a CONNECT's 2xx turns the connection into a tunnel.
            boolean bodiless = request.method().equals(HttpMethod.HEAD) || request.method().equals(HttpMethod.CONNECT);
            pending.add(bodiless ? null : ContentCodings.negotiate(acceptEncoding(request.headers()), codings));
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
        if (encoder != null && !(msg instanceof HttpObject) && !(msg instanceof ByteBuf b && !b.isReadable())) {
            // A FileRegion or raw bytes would go out plain under the coding the head announced.
            closeEncoder();
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new IllegalStateException("a " + msg.getClass().getSimpleName() + " cannot be compressed:"
                    + " after a compressed response head, write its body as HttpContent (e.g. HttpChunkedInput)"));
            ctx.close(); // the coded body the head promised can no longer follow
            return;
        }
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
        response.headers().set(HttpHeaderNames.CONTENT_ENCODING, coding);
        Vary.append(response.headers(), "accept-encoding");
        String etag = response.headers().get(HttpHeaderNames.ETAG);
        if (etag != null && etag.startsWith("\"")) {
            // The compressed bytes differ from the identity ones a strong tag names (RFC 9110 §8.8.3).
            response.headers().set(HttpHeaderNames.ETAG, "W/" + etag);
        }
        if (response instanceof FullHttpResponse full) {
            FullHttpResponse out = full.replace(compressWhole(ctx, coding, full));
            full.release();
            if (!HttpUtil.isTransferEncodingChunked(out)) {
                HttpUtil.setContentLength(out, out.content().readableBytes());
            }
            return out;
        }
        encoder = new EmbeddedChannel(newEncoder(coding));
        response.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
        HttpUtil.setTransferEncodingChunked(response, true);
        return response;
    }

    /**
     * The whole body of a full response, compressed. br and zstd get it in one call that also ends
     * the stream: told the size, the libraries set up for the body rather than for an endless
     * stream (for 2 KiB, a half and a sixth of the time a stream takes, see the benchmark
     * {@code HttpContentCompressBenchmark}). zlib costs the same either way.
     */
    private ByteBuf compressWhole(ChannelHandlerContext ctx, String coding, FullHttpResponse full) {
        return switch (coding) {
            case ContentCodings.BR -> BrotliEncoder.compressWhole(ctx.alloc(), full.content(), brotliQuality,
                    BrotliEncoder.DEFAULT_WINDOW_LOG);
            case ContentCodings.ZSTD -> ZstdEncoder.compressWhole(ctx.alloc(), full.content(), zstdLevel);
            default -> {
                encoder = new EmbeddedChannel(newEncoder(coding));
                yield compress(ctx, full, true);
            }
        };
    }

    private ChannelHandler newEncoder(String coding) {
        return switch (coding) {
            case ContentCodings.GZIP -> new ZlibEncoder(ZlibWrapper.GZIP, gzipLevel);
            case ContentCodings.DEFLATE -> new ZlibEncoder(ZlibWrapper.ZLIB, gzipLevel);
            case ContentCodings.BR -> new BrotliEncoder(brotliQuality, BrotliEncoder.DEFAULT_WINDOW_LOG);
            case ContentCodings.ZSTD -> new ZstdEncoder(zstdLevel);
            default -> throw new IllegalStateException("coding " + coding); // negotiate only returns the above
        };
    }

    private boolean shouldCompress(HttpResponse response, String coding) {
        if (coding == null) {
            return false;
        }
        int status = response.status().code();
        HttpHeaders h = response.headers();
        if (status == 204 || status == 206 || status == 304 || h.contains(HttpHeaderNames.CONTENT_ENCODING)
                || h.contains(HttpHeaderNames.CONTENT_RANGE)
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

    /**
     * The settings of an {@link HttpContentCompressor}; one builder may build any number of
     * handlers (one per connection: the handler is not sharable).
     */
    public static final class Builder {
        private List<String> codings = DEFAULT_CODINGS;
        private int gzipLevel = Deflater.DEFAULT_COMPRESSION;
        private int brotliQuality = BrotliEncoder.DEFAULT_QUALITY;
        private int zstdLevel = ZstdEncoder.DEFAULT_LEVEL;
        private int minBodySize = DEFAULT_MIN_BODY_SIZE;
        private int maxPendingRequests = DEFAULT_MAX_PENDING_REQUESTS;

        private Builder() {
        }

        /**
         * The codings to offer, most preferred first: a tie between q-values goes to the earlier.
         * A coding whose library is missing at {@link #build()} is left out.
         *
         * @param preference tokens among {@code br}, {@code zstd}, {@code gzip}, {@code deflate}
         *        (case-insensitive); {@link #DEFAULT_CODINGS} by default
         * @return this builder
         * @throws IllegalArgumentException on an unknown or repeated token, or none at all
         */
        public Builder codings(String... preference) {
            if (preference.length == 0) {
                throw new IllegalArgumentException("codings: none given (to compress nothing, leave the handler out)");
            }
            List<String> list = new ArrayList<>(preference.length);
            for (String p : preference) {
                String c = p.trim().toLowerCase(Locale.ROOT);
                if (!DEFAULT_CODINGS.contains(c) || list.contains(c)) {
                    throw new IllegalArgumentException("codings: '" + p + "' is unknown or repeated (expected some of "
                            + DEFAULT_CODINGS + ")");
                }
                list.add(c);
            }
            this.codings = List.copyOf(list);
            return this;
        }

        /**
         * @param level gzip and deflate: 1 (fastest) to 9 (smallest), or -1 for zlib's default (6)
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder gzipLevel(int level) {
            if (level < -1 || level > 9) {
                throw new IllegalArgumentException("gzipLevel: " + level + " (expected: -1..9)");
            }
            this.gzipLevel = level;
            return this;
        }

        /**
         * @param quality br: 0 (fastest) to 11 (smallest); {@link BrotliEncoder#DEFAULT_QUALITY} by default
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder brotliQuality(int quality) {
            if (quality < 0 || quality > 11) {
                throw new IllegalArgumentException("brotliQuality: " + quality + " (expected: 0..11)");
            }
            this.brotliQuality = quality;
            return this;
        }

        /**
         * @param level zstd: 1 (fastest) to 19 (smallest; higher ones would pass the 8 MiB window
         *        RFC 9659 allows), negative levels down to -7 trade ratio for speed;
         *        {@link ZstdEncoder#DEFAULT_LEVEL} by default
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder zstdLevel(int level) {
            if (level < -7 || level > 19 || level == 0) {
                throw new IllegalArgumentException("zstdLevel: " + level + " (expected: -7..-1 or 1..19)");
            }
            this.zstdLevel = level;
            return this;
        }

        /**
         * @param bytes bodies known to be smaller are sent as they are; {@link #DEFAULT_MIN_BODY_SIZE} by default
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder minBodySize(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("minBodySize: " + bytes + " (expected: >= 0)");
            }
            this.minBodySize = bytes;
            return this;
        }

        /**
         * @param requests requests whose coding is remembered at once (see the class comment);
         *        {@link #DEFAULT_MAX_PENDING_REQUESTS} by default
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxPendingRequests(int requests) {
            if (requests < 1) {
                throw new IllegalArgumentException("maxPendingRequests: " + requests + " (expected: >= 1)");
            }
            this.maxPendingRequests = requests;
            return this;
        }

        /** @return a new handler with these settings */
        public HttpContentCompressor build() {
            return new HttpContentCompressor(this);
        }
    }
}
