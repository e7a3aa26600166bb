package io.rill.handler.codec.http;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.compression.BrotliDecoder;
import io.rill.handler.codec.compression.CompressionLibrary;
import io.rill.handler.codec.compression.DecompressionException;
import io.rill.handler.codec.compression.DecompressionLimitException;
import io.rill.handler.codec.compression.ZlibDecoder;
import io.rill.handler.codec.compression.ZlibWrapper;
import io.rill.handler.codec.compression.ZstdDecoder;

/**
 * Decodes message bodies sent with {@code Content-Encoding} gzip, x-gzip, deflate, x-deflate, br
 * (brotli) or zstd, stacked codings ({@code gzip, br}) included, and passes the message on as if it had been
 * sent plain: {@code Content-Encoding} and {@code Content-Length} removed, {@code Transfer-Encoding:
 * chunked} set (an {@link HttpObjectAggregator} after this handler puts a length back).
 *
 * <pre>{@code
 * pipeline.addLast(new HttpClientCodec(),
 *         HttpContentDecompressor.builder().maxDecodedBytes(16 << 20).maxRatio(0).build(),
 *         new HttpObjectAggregator(16 << 20), new MyHandler());
 * }</pre>
 *
 * <p><b>Bounded.</b> Two settings, named in the builder so that no bare number can mean something
 * else (Netty's {@code HttpContentDecompressor(int)} caps each buffer it allocates, not the body):
 * <ul>
 *   <li>{@link Builder#maxDecodedBytes}: the most bytes one message's body may decode to, whatever
 *       its codings; with stacked codings the output of every stage counts, so {@code gzip, gzip}
 *       cannot multiply the ratio (docs/security-cases.md, cases C-01, C-05). Default
 *       {@link #DEFAULT_MAX_DECODED_BYTES}.
 *   <li>{@link Builder#maxRatio}: each stage refuses to put out more than this many bytes per byte
 *       it reads, once past its first {@link ZlibDecoder#RATIO_GRACE_BYTES} (a bomb is refused
 *       before it reaches the cap). Default {@link #DEFAULT_MAX_RATIO}; a client that fetches pages
 *       that compress better (logs, padding, repeated markup) raises it or turns it off with 0, the
 *       cap still bounding the body.
 * </ul>
 * Output is handed on in pieces of at most {@link ZlibDecoder#CHUNK_SIZE} bytes as it is inflated,
 * never gathered (C-04).
 *
 * <p><b>Failure.</b> Passing a bound, or corrupt or truncated data, ends the message without a
 * {@link LastHttpContent}: the handler after this one gets the {@link DecompressionException}
 * through {@code exceptionCaught} (a {@link DecompressionLimitException} naming the setting for a
 * bound) and never an end of content, so a body cut short can never pass for a whole one. The
 * rest of that message is dropped. A request is also answered {@code 413} (a bound) or {@code 400}
 * (corrupt data) and its connection closed, before the exception is fired.
 *
 * <p>A request with a coding this handler does not know is answered {@code 415 Unsupported Media
 * Type} and the connection closed (RFC 9110 §15.5.16); a response with one passes through as it
 * came. br needs brotli4j and zstd needs zstd-jni (see {@link CompressionLibrary}); where a
 * library is missing its coding is unknown in that sense. Each stage is a {@link ZlibDecoder},
 * {@link BrotliDecoder} or {@link ZstdDecoder} (its window at most 8 MiB, as RFC 9659 allows) inside
 * an {@link EmbeddedChannel} of this handler's own, run on the calling thread; all of them obey
 * the same two bounds.
 */
public class HttpContentDecompressor implements ChannelHandler {

    /** Default cap on one message's decoded bytes, all stages together: 64 MiB. */
    public static final long DEFAULT_MAX_DECODED_BYTES = ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES;
    /** Default cap on each stage's output bytes per input byte: {@value}. */
    public static final int DEFAULT_MAX_RATIO = ZlibDecoder.DEFAULT_MAX_RATIO;

    private final long maxDecodedBytes;
    /** Output bytes allowed per input byte in each stage; 0 for no limit. */
    private final int maxRatio;
    /** The decoding stages of the current message, or null when it passes through. Loop-confined. */
    private EmbeddedChannel stages;
    /** The context of this handler while a message is decoded: where the last stage fires its output. */
    private ChannelHandlerContext ctx;
    /** Whether the current message is a request (answered on failure) rather than a response. */
    private boolean request;
    /** Bytes put out by every stage of the current message. */
    private long decoded;
    /** Set when {@link #decoded} passed the cap; the stages' later output is dropped. */
    private boolean overCap;
    /** True while the rest of a failed or refused message is dropped. */
    private boolean discarding;

    /** Decodes with the defaults: {@link #DEFAULT_MAX_DECODED_BYTES}, {@link #DEFAULT_MAX_RATIO}. */
    public HttpContentDecompressor() {
        this(builder());
    }

    /**
     * For subclasses; others call {@link Builder#build()}.
     *
     * @param settings the bounds; read once, later changes to the builder do not reach this handler
     */
    protected HttpContentDecompressor(Builder settings) {
        this.maxDecodedBytes = settings.maxDecodedBytes;
        this.maxRatio = settings.maxRatio;
    }

    /** @return a builder with the defaults of {@link #HttpContentDecompressor()} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The codings this handler decodes here, as a client's {@code Accept-Encoding} value: gzip and
     * deflate always, br and zstd where their libraries load ({@link CompressionLibrary}), the
     * stronger ones first. Sending it rather than a fixed list keeps a client from asking for a
     * coding it would then pass through undecoded.
     *
     * @return for example {@code "zstd, br, gzip, deflate"}
     */
    public static String acceptEncoding() {
        return (CompressionLibrary.ZSTD.isAvailable() ? "zstd, " : "") + (CompressionLibrary.BROTLI.isAvailable() ? "br, " : "")
                + "gzip, deflate";
    }

    /** @return the most bytes one message's body may decode to, all codings counted */
    public long maxDecodedBytes() {
        return maxDecodedBytes;
    }

    /** @return each stage's most output bytes per input byte past the grace; 0 for no limit */
    public int maxRatio() {
        return maxRatio;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpMessage head) {
            closeStages();
            discarding = false;
            HttpMessage passed = startMessage(ctx, head);
            if (passed == null) {
                return; // refused: already released and answered
            }
            if (!(msg instanceof FullHttpMessage full)) {
                ctx.fireChannelRead(passed);
            } else if (stages == null) {
                ctx.fireChannelRead(full); // a full message with nothing to decode
            } else {
                ctx.fireChannelRead(passed); // its head, then its body decoded piece by piece
                content(ctx, new DefaultLastHttpContent(full.content(), full.trailingHeaders()));
            }
            return;
        }
        if (msg instanceof HttpContent content) {
            content(ctx, content);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * Sets up decoding for {@code head}; returns what to fire as the head: itself, a head-only copy
     * of a full message that will be decoded, or null when the message was refused.
     */
    private HttpMessage startMessage(ChannelHandlerContext ctx, HttpMessage head) {
        if (!head.headers().contains(HttpHeaderNames.CONTENT_ENCODING) || head.decoderResult().isFailure()) {
            return head;
        }
        // Several fields are one list (RFC 9110 §5.3): "gzip" twice is "gzip, gzip".
        String coding = String.join(",", head.headers().getAll(HttpHeaderNames.CONTENT_ENCODING));
        List<String> codings = ContentCodings.decoders(coding);
        request = head instanceof HttpRequest;
        if (codings == null) {
            if (!request) {
                return head; // the application sees the coded body, which it may know how to read
            }
            ReferenceCountUtil.release(head);
            discarding = !(head instanceof FullHttpMessage);
            HttpRefusal.refuseAndClose(ctx, HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Encoding '" + coding + "'");
            return null;
        }
        head.headers().remove(HttpHeaderNames.CONTENT_ENCODING);
        if (codings.isEmpty()) {
            return head; // identity only
        }
        this.ctx = ctx;
        decoded = 0;
        overCap = false;
        stages = new EmbeddedChannel();
        // The last coding listed was applied last, so it is undone first.
        // A stage may go one chunk past the cap, so the counter, not the stage, notices an overflow.
        long stageCap = Math.min(maxDecodedBytes, Long.MAX_VALUE - ZlibDecoder.CHUNK_SIZE) + ZlibDecoder.CHUNK_SIZE;
        for (int i = codings.size() - 1; i >= 0; i--) {
            stages.pipeline().addLast(newStage(codings.get(i), stageCap), new Counter());
        }
        stages.pipeline().addLast(new Forwarder());
        head.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
        head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        if (head instanceof FullHttpMessage) {
            return head instanceof HttpRequest r
                    ? new DefaultHttpRequest(r.protocolVersion(), r.method(), r.uri(), r.headers())
                    : new DefaultHttpResponse(head.protocolVersion(), ((HttpResponse) head).status(), head.headers());
        }
        return head;
    }

    private ChannelHandler newStage(String coding, long cap) {
        return switch (coding) {
            case ContentCodings.GZIP -> new ZlibDecoder(ZlibWrapper.GZIP, cap, maxRatio);
            case ContentCodings.DEFLATE -> new ZlibDecoder(ZlibWrapper.ZLIB_OR_NONE, cap, maxRatio);
            case ContentCodings.BR -> new BrotliDecoder(cap, maxRatio);
            case ContentCodings.ZSTD -> new ZstdDecoder(cap, maxRatio, ZstdDecoder.DEFAULT_MAX_WINDOW_LOG);
            default -> throw new IllegalStateException("coding " + coding); // decoders() returns only the above
        };
    }

    private void content(ChannelHandlerContext ctx, HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        if (discarding) {
            content.release();
            discarding = !last;
            return;
        }
        if (stages == null) {
            ctx.fireChannelRead(content);
            return;
        }
        Throwable failure = null;
        try {
            if (content.content().isReadable()) {
                stages.writeInbound(content.content().retain());
            }
            if (last) {
                stages.finish(); // a stream cut short fails here
            }
        } catch (Throwable cause) {
            failure = cause;
        }
        if (overCap) {
            // Past the cap a stage may also have failed on its own larger cap; the cap is the news.
            failure = new DecompressionLimitException("body decodes to more than " + maxDecodedBytes
                    + " bytes (HttpContentDecompressor maxDecodedBytes)", "maxDecodedBytes", maxDecodedBytes);
        }
        if (failure != null) {
            content.release();
            fail(ctx, failure, last);
            return;
        }
        if (last) {
            stages = null;
            HttpHeaders trailers = ((LastHttpContent) content).trailingHeaders();
            ctx.fireChannelRead(trailers.isEmpty() ? LastHttpContent.EMPTY_LAST_CONTENT
                    : new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, trailers.copy()));
        }
        content.release();
    }

    /**
     * Ends the current message as failed: no end of content follows what was passed on, the
     * exception tells the next handler; a request is first answered and its connection closed.
     */
    private void fail(ChannelHandlerContext ctx, Throwable cause, boolean last) {
        boolean bound = overCap || cause instanceof DecompressionLimitException; // too big, or expanding like a bomb
        closeStages();
        discarding = !last;
        if (request) {
            HttpRefusal.refuseAndClose(ctx, bound ? HttpResponseStatus.CONTENT_TOO_LARGE : HttpResponseStatus.BAD_REQUEST,
                    cause.getMessage());
        }
        ctx.fireExceptionCaught(cause);
    }

    private void closeStages() {
        EmbeddedChannel s = stages;
        stages = null;
        if (s != null) {
            try {
                s.finishAndReleaseAll();
            } catch (RuntimeException ignored) {
                // a truncated stream at teardown: nothing is waiting for its result
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closeStages();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        closeStages();
    }

    /** Counts a stage's output against the cap; past it, drops everything. */
    private final class Counter implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext stageCtx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            decoded += buf.readableBytes();
            if (decoded > maxDecodedBytes) {
                overCap = true;
            }
            if (overCap) {
                buf.release();
                return;
            }
            stageCtx.fireChannelRead(buf);
        }
    }

    /** The end of the stages: hands each decoded piece to the real pipeline at once. */
    private final class Forwarder implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext stageCtx, Object msg) {
            ctx.fireChannelRead(new DefaultHttpContent((ByteBuf) msg));
        }
    }

    /**
     * The bounds of an {@link HttpContentDecompressor}; one builder may build any number of handlers
     * (one per connection: the handler is not sharable).
     */
    public static final class Builder {
        private long maxDecodedBytes = DEFAULT_MAX_DECODED_BYTES;
        private int maxRatio = DEFAULT_MAX_RATIO;

        private Builder() {
        }

        /**
         * @param bytes the most bytes one message's body may decode to, all codings counted;
         *        {@link #DEFAULT_MAX_DECODED_BYTES} by default
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is not positive
         */
        public Builder maxDecodedBytes(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxDecodedBytes: " + bytes + " (expected: > 0)");
            }
            this.maxDecodedBytes = bytes;
            return this;
        }

        /**
         * @param ratio the most output bytes each coding stage may put out per byte it reads, checked
         *        past its first {@link ZlibDecoder#RATIO_GRACE_BYTES}; 0 for no limit (the
         *        {@link #maxDecodedBytes} cap still holds); {@link #DEFAULT_MAX_RATIO} by default
         * @return this builder
         * @throws IllegalArgumentException if {@code ratio} is negative
         */
        public Builder maxRatio(int ratio) {
            if (ratio < 0) {
                throw new IllegalArgumentException("maxRatio: " + ratio + " (expected: >= 0, 0 for no limit)");
            }
            this.maxRatio = ratio;
            return this;
        }

        /** @return a new handler with these bounds */
        public HttpContentDecompressor build() {
            return new HttpContentDecompressor(this);
        }
    }
}
